import { durationMs } from '../../audio/format.js';
import { AbortError, ProtocolError, TimeoutError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import { markRouterStall } from '../../internal/stall.js';
import { PhaseDeadlines } from '../../transport/phase-deadlines.js';
import type { WebSocketConnection, WebSocketTransport } from '../../transport/websocket-types.js';
import type { TranscriptEvent } from '../../types/transcript.js';
import { parseWire } from '../shared/parse-wire.js';
import { checkedTranscriptTimes } from '../shared/transcript-times.js';
import { withPartialOutput } from '../shared/with-partial-output.js';
import type { AttemptContext, ProviderSttRequest, SttProvider } from '../types.js';
import { sttMessageSchema } from './api-types.js';
import { type CartesiaEndpoint, cartesiaSocketTarget } from './endpoint.js';
import { cartesiaErrorEvent } from './error-event.js';
import { cartesiaSttCapabilities, wireEncoding } from './formats.js';
import { forwardInput, type InputForwarder } from './forward-input.js';
import { cartesiaFrame } from './frame.js';
import { Inbox } from './inbox.js';
import type { CartesiaSttOptions } from './options.js';
import { transcriptEvent } from './stt-transcript.js';

/** What the reading loop of one STT session waits on. */
type SttItem = { kind: 'message'; json: Record<string, unknown> } | { kind: 'closed' };

/**
 * Speech-to-text over `/stt/websocket` (manual finalize; PROTOCOLS.md 1.6), one socket per call:
 * - connect to `wss://<host>/stt/websocket?model=&encoding=&sample_rate=&language=` (the
 *   request's model and language, else the configured ones; `language` as its primary subtag,
 *   left out when none) with the key and version in the handshake headers, or in the query
 *   (`api_key`, `cartesia_version`) when the transport cannot send headers;
 * - the caller's audio goes out as binary frames as it arrives; when it ends, the text command
 *   `finalize`; at the server's `flush_done` (every transcript of the audio has been sent), the
 *   command `close`; the session ends at `done` (or the server's normal close after
 *   `flush_done`), so the last words are never dropped;
 * - `transcript` messages become TranscriptEvents (see `transcriptEvent`): finals, and partials
 *   when `interim`, with words and times in ms; a negative, inverted or non-finite time, or one
 *   past the end of the audio sent so far (see `checkedTranscriptTimes`), is a malformed message;
 * - deadlines (`attempt.deadlines`, on `clock`): `idleMs` between the server's messages once the
 *   audio has ended (silence while the caller still speaks is normal), `totalMs` for the session:
 *   TimeoutError; `connectMs` for the handshake;
 * - abort of `attempt.signal` or the consumer leaving early closes the socket at once.
 * `capabilities.streamingInput` is false: transcripts come once the audio is finalized, so the
 * router counts time to first transcript from the end of the input.
 * Throws what the transport throws (ProviderError with the HTTP status of a refused upgrade or
 * the close code of an error close: a 1008 is retryable and not auth when its reason names a
 * quota, concurrency, rate limit or timeout, auth when it names a bad key, see
 * `policyCloseVerdict`; TimeoutError; AbortError), ProviderError
 * for an `error` message (`status_code` decides `retryable`), ProtocolError for a malformed
 * message (a `transcript` without `is_final` included), a close before `flush_done` or a `done` before it (both truncated: audio would go
 * untranscribed), and whatever the audio iterable throws.
 */
export function createCartesiaStt(
  endpoint: CartesiaEndpoint,
  options: CartesiaSttOptions,
  transportOf: (attempt: AttemptContext) => Promise<WebSocketTransport>,
  clock: Clock,
): SttProvider {
  const capabilities = cartesiaSttCapabilities();
  return {
    capabilities,
    async *transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncGenerator<TranscriptEvent> {
      const provider = endpoint.provider;
      const transport = await transportOf(attempt);
      const language = (request.language ?? options.language)?.split(/[-_]/)[0]?.toLowerCase() || undefined;
      const target = cartesiaSocketTarget(
        { ...endpoint, authInQuery: endpoint.authInQuery || transport.canSendHeaders === false },
        '/stt/websocket',
        {
          model: request.model ?? options.model,
          encoding: wireEncoding(request.format.encoding),
          sample_rate: request.format.sampleRate,
          language,
        },
      );
      const connection = await transport.connect({
        provider,
        url: target.url,
        headers: target.headers,
        signal: attempt.signal,
        ...(attempt.deadlines.connectMs ? { deadlines: { connectMs: attempt.deadlines.connectMs } } : {}),
      });
      if (attempt.signal.aborted) {
        connection.close(1000);
        throw new AbortError('Cartesia STT aborted', { cause: attempt.signal.reason });
      }
      let hadOutput = false;
      const inbox = new Inbox<SttItem>();
      const deadlines = new PhaseDeadlines(
        clock,
        { idleMs: attempt.deadlines.idleMs, totalMs: attempt.deadlines.totalMs },
        false,
        // A deadline that passed while the event loop was blocked is the router's stall.
        (phase, timeoutMs, stalled) => {
          const error = new TimeoutError(phase, timeoutMs, { provider, partialOutput: hadOutput });
          inbox.fail(stalled ? markRouterStall(error) : error);
        },
      );
      const onAbort = () =>
        inbox.fail(new AbortError('Cartesia STT aborted', { cause: attempt.signal.reason }));
      attempt.signal.addEventListener('abort', onAbort, { once: true });
      void pump(connection, inbox, provider);
      /** Bytes of audio sent on this socket so far: its transcript times cannot pass them. */
      let audioBytesSent = 0;
      // Once all audio is sent, the idle deadline starts (Cartesia owes the finals then): the wait
      // for the next message is its silence.
      const audio = sendAudio(
        request.audio,
        connection,
        () => {
          deadlines.markHeaders();
          deadlines.startIdle();
        },
        inbox,
        (bytes) => {
          audioBytesSent += bytes;
        },
      );
      let flushed = false;
      let finished = false;
      try {
        for (;;) {
          let item: SttItem;
          try {
            item = await inbox.take();
          } catch (error) {
            throw withPartialOutput(error, hadOutput);
          }
          if (item.kind === 'closed') {
            if (flushed) {
              finished = true;
              return;
            }
            throw new ProtocolError(
              'Cartesia closed the STT WebSocket before its final transcripts (truncated)',
              {
                provider,
                partialOutput: hadOutput,
              },
            );
          }
          deadlines.activity();
          const message = parseWire(sttMessageSchema(), item.json, provider, 'STT message', hadOutput);
          switch (message.type) {
            case 'transcript': {
              // Every transcript says whether it is final (PROTOCOLS.md 1.6): taken for a partial,
              // one without `is_final` would leave its words out of the transcript.
              if (typeof message.is_final !== 'boolean') {
                throw new ProtocolError('Unexpected STT transcript message at is_final: missing', {
                  provider,
                  partialOutput: hadOutput,
                });
              }
              const parsed = transcriptEvent(message, request.interim);
              const sentMs = durationMs(request.format, audioBytesSent);
              const event =
                parsed &&
                checkedTranscriptTimes(parsed, provider, 'STT transcript message', hadOutput, sentMs);
              if (event) {
                hadOutput = true;
                deadlines.setPaused(true);
                yield event;
                deadlines.setPaused(false);
              }
              break;
            }
            case 'flush_done':
              if (audio.ended() && !flushed) {
                flushed = true;
                connection.send('close');
              }
              break;
            case 'done':
              // `done` answers `close`, sent after the last `flush_done`: before it, the server
              // ended the session with audio still to transcribe.
              if (!flushed) {
                throw new ProtocolError('Cartesia sent done before the end of the audio (truncated)', {
                  provider,
                  partialOutput: hadOutput,
                });
              }
              finished = true;
              return;
            case 'error':
              throw cartesiaErrorEvent(provider, item.json, hadOutput);
            default:
              break;
          }
        }
      } finally {
        deadlines.stop();
        attempt.signal.removeEventListener('abort', onAbort);
        audio.stop();
        connection.close(1000, finished ? 'OK' : '');
      }
    },
  };
}

/** Reads the connection into `inbox`: JSON objects as messages, then `closed`, or the failure. */
async function pump(connection: WebSocketConnection, inbox: Inbox<SttItem>, provider: string): Promise<void> {
  try {
    for await (const message of connection.messages()) {
      inbox.push({ kind: 'message', json: cartesiaFrame(message, provider) });
    }
    inbox.push({ kind: 'closed' });
  } catch (error) {
    inbox.fail(error);
  }
}

/** The task that sends the caller's audio; see {@link sendAudio}. */
/**
 * Sends each audio chunk as a binary frame as it arrives (`onSent` gets the bytes of each one
 * the socket took), then the text command `finalize` (and calls `onEnd`). Stops when the socket
 * no longer takes frames (the pump reports why). A failing audio iterable fails `inbox`.
 */
function sendAudio(
  audio: AsyncIterable<Uint8Array>,
  connection: WebSocketConnection,
  onEnd: () => void,
  inbox: { fail(error: unknown): void },
  onSent: (bytes: number) => void,
): InputForwarder {
  return forwardInput(audio, {
    skip: (chunk) => chunk.byteLength === 0,
    send: (chunk) => {
      if (!connection.send(chunk)) return false;
      onSent(chunk.byteLength);
      return true;
    },
    end: () => connection.send('finalize'),
    onEnded: onEnd,
    fail: (error) => inbox.fail(error),
  });
}
