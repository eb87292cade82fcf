import { durationMs } from '../../audio/format.js';
import { ProtocolError, TimeoutError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import type {
  WebSocketClose,
  WebSocketConnectRequest,
  WebSocketTransport,
} from '../../transport/websocket-types.js';
import type { TranscriptEvent } from '../../types/transcript.js';
import { readingHttpErrors } from '../shared/http-error-verdict.js';
import { checkedTranscriptTimes } from '../shared/transcript-times.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';
import type { AttemptContext, ProviderSttRequest, SttProvider } from '../types.js';
import { listenMessageSchema, listenResultsSchema } from './api-types.js';
import { authorizationOf, type DeepgramEndpoint, deepgramUrl } from './endpoint.js';
import { deepgramSttCapabilities } from './formats.js';
import { listenErrorMessage } from './listen-error-message.js';
import { listenError } from './listen-errors.js';
import { listenQuery } from './listen-query.js';
import { EndpointTracker, transcriptEventOf } from './listen-results.js';
import { ListenSession } from './listen-session.js';
import {
  DEFAULT_CLOSE_WAIT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  type DeepgramSttOptions,
  type DeepgramWebSocketAuth,
} from './options.js';

/** What the listen adapter needs besides its options. */
export interface ListenDependencies {
  /** The WebSocket transport when the attempt brings none. */
  webSocket: () => Promise<WebSocketTransport>;
  clock: Clock;
}

/**
 * Where the key goes for `transport` (see DeepgramWebSocketAuth): `'auto'` picks the header
 * unless the transport says it cannot send handshake headers (`canSendHeaders === false`).
 */
export function resolveListenAuth(
  auth: DeepgramWebSocketAuth | undefined,
  transport: WebSocketTransport,
): 'header' | 'subprotocol' {
  if (auth === 'header' || auth === 'subprotocol') return auth;
  return transport.canSendHeaders === false ? 'subprotocol' : 'header';
}

/**
 * Live speech-to-text over the `/v1/listen` WebSocket (PROTOCOLS.md 3.2). One socket per call:
 * - opened at `wss://{host}/v1/listen?model&encoding&sample_rate&channels&interim_results...`
 *   (see `listenQuery`) with the key as `Authorization: Token <key>` or as the subprotocols
 *   `token, <key>` (PROTOCOLS.md 3.1; see `resolveListenAuth`), the attempt's signal and connect
 *   deadline. The route's idle deadline is not given to the socket: Deepgram is rightly silent
 *   while the caller is; it applies after the audio ended (below);
 * - the caller's audio goes out as binary frames as it arrives, KeepAlive text messages fill
 *   its pauses, and its end sends Finalize then CloseStream (see ListenSession);
 * - `Results` become TranscriptEvents (see `transcriptEventOf`): finals always, partials when
 *   `interim`; the end of an utterance (`speech_final: true`, or `UtteranceEnd` when
 *   `utteranceEndMs` is set) sets `endOfSpeech: true` on its final, or comes as a marker final
 *   with empty text when the utterance's words were already sent (see `EndpointTracker`);
 *   `SpeechStarted` and types this version does not know (a newer server's) are skipped;
 * - an `Error` message ends the attempt with its typed error (see `listenErrorMessage`: auth,
 *   passing or not retryable by its code and description; malformed without either);
 * - the stream ends normally at `Metadata` after CloseStream once a final flushed by Finalize
 *   (`from_finalize`) came, or else when the socket then closes normally (or stays open past the
 *   idle wait after `Metadata`): the last words after Finalize are never lost, even from a server
 *   that sends `Metadata` before them (CloseStream -> Results... -> Metadata -> close). A normal
 *   close after CloseStream with no `Metadata` before it is a truncation, never an end;
 * - `Results` times are checked (see `checkedTranscriptTimes`): a negative, inverted or
 *   non-finite `start` / `duration` / word time is a malformed message, and so is one past the
 *   end of the audio sent on the socket so far (beyond `TRANSCRIPT_TIME_TOLERANCE_MS`).
 * Throws (with `partialOutput` when a transcript was yielded): ProviderError for a refused
 * upgrade (HTTP status, e.g. 401 not retryable) or an error close (status = close code,
 * `providerCode` = Deepgram's code in the reason: 1011 `NET-0001` inactivity is retryable,
 * `DATA-*` is not; a 1008 is retryable (and not auth) when its reason names a quota,
 * concurrency, rate limit or timeout, an auth failure when it names a bad key; 1006 / 1001, a lost connection, has `connectionLost`; see `listenError`); ProtocolError for a binary frame, a message that is not a
 * JSON object with a string `type`, or not a valid `Results` (times included), and for a normal close before the caller's audio ended,
 * or after CloseStream without `Metadata` (words would be lost; retryable, truncated);
 * TimeoutError (`idle`) when no message comes within the idle deadline (default 10 s) after
 * CloseStream; AbortError when the signal aborts (the socket is closed at once); whatever the
 * caller's audio source throws. Leaving the loop early closes the socket.
 */
export function createDeepgramListen(
  endpoint: DeepgramEndpoint,
  options: DeepgramSttOptions,
  dependencies: ListenDependencies,
): SttProvider {
  const capabilities = deepgramSttCapabilities();
  const provider = endpoint.provider;
  return {
    capabilities,
    async *transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncGenerator<TranscriptEvent> {
      const url = deepgramUrl(endpoint, '/v1/listen', listenQuery(request, options, provider), 'ws');
      const transport = attempt.webSocket ?? (await dependencies.webSocket());
      // A refused upgrade explains itself in `dg-error` (Deepgram's STT WebSocket troubleshooting
      // page, "Debugging Connection Failures").
      const connect: WebSocketConnectRequest = {
        provider,
        url,
        signal: attempt.signal,
        errorHeader: 'dg-error',
      };
      if (resolveListenAuth(options.auth, transport) === 'header') {
        connect.headers = { authorization: authorizationOf(endpoint) };
      } else {
        connect.protocols = ['token', endpoint.apiKey];
      }
      if (attempt.deadlines.connectMs) connect.deadlines = { connectMs: attempt.deadlines.connectMs };
      // An upgrade refused because the model is unknown falls back (`namesUnknownModel`).
      const conn = await readingHttpErrors(transport.connect(connect), readUnknownModelHttpError);
      const session = new ListenSession(conn, {
        provider,
        clock: dependencies.clock,
        keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_MS,
        closeWaitMs: attempt.deadlines.idleMs || DEFAULT_CLOSE_WAIT_MS,
        signal: attempt.signal,
      });
      let hadOutput = false;
      let closeInfo: WebSocketClose | undefined;
      conn.closed.then(
        (close) => {
          closeInfo = close;
        },
        () => {},
      );
      session.pump(request.audio);
      // Whether a final flushed by Finalize came, and whether Metadata (the end marker) did.
      let finalized = false;
      let metadataSeen = false;
      const endpoints = new EndpointTracker();
      try {
        for await (const message of session.messages()) {
          if (message.type !== 'text') {
            throw new ProtocolError(
              `Binary frame on the listen socket (${message.data.byteLength} bytes); Deepgram sends JSON text only`,
              { provider, partialOutput: hadOutput },
            );
          }
          const json = parseMessage(message.data, provider, hadOutput);
          const typed = listenMessageSchema().safeParse(json);
          if (!typed.success) {
            throw new ProtocolError(
              `Message on the listen socket is not a JSON object with a string type (${message.data.length} chars)`,
              { provider, partialOutput: hadOutput, cause: typed.error },
            );
          }
          if (typed.data.type === 'Results') {
            const results = listenResultsSchema().safeParse(json);
            if (!results.success) {
              const issue = results.error.issues[0];
              throw new ProtocolError(
                `Unexpected Results message${issue ? ` at ${issue.path.join('.')}: ${issue.message}` : ''}`,
                { provider, partialOutput: hadOutput, cause: results.error },
              );
            }
            if (results.data.from_finalize === true && session.closeStreamSent) finalized = true;
            const parsed = transcriptEventOf(results.data, request.interim);
            // Times are from the start of this socket's audio (a reconnect's new socket starts at
            // 0; the router moves them onto the caller's timeline): none can be past what it sent.
            const sentMs = durationMs(request.format, session.audioBytesSent);
            const event =
              parsed && checkedTranscriptTimes(parsed, provider, 'Results message', hadOutput, sentMs);
            if (event) {
              hadOutput = true;
              yield endpoints.seen(event);
            } else if (results.data.is_final === true && results.data.speech_final === true) {
              const marker = endpoints.endpoint();
              if (marker) yield marker;
            }
          } else if (typed.data.type === 'Error') {
            throw listenErrorMessage(provider, typed.data, endpoint.apiKey, hadOutput);
          } else if (typed.data.type === 'UtteranceEnd') {
            const marker = endpoints.endpoint();
            if (marker) yield marker;
          } else if (typed.data.type === 'Metadata' && session.closeStreamSent) {
            // Metadata ends the stream once Finalize's last words came; before them (a server
            // that sends it early), the words may still follow: read on until the socket closes.
            if (finalized) return;
            metadataSeen = true;
          }
        }
        if (!session.closeStreamSent) {
          throw new ProtocolError(
            `Provider '${provider}' closed the listen socket before the end of the audio (transcript truncated)`,
            { provider, partialOutput: hadOutput },
          );
        }
        // Deepgram answers CloseStream with the remaining Results, then Metadata, then closes:
        // a normal close without Metadata is a cut stream, not "nothing more was said".
        if (!metadataSeen) {
          throw new ProtocolError(
            `Provider '${provider}' closed the listen socket after CloseStream without Metadata, its end marker (transcript truncated)`,
            { provider, partialOutput: hadOutput },
          );
        }
      } catch (error) {
        // Metadata came and the socket stayed open past the wait: the stream had its end marker.
        if (metadataSeen && TimeoutError.isInstance(error) && error.phase === 'idle') return;
        throw listenError(error, closeInfo, hadOutput, session.msSinceAudio());
      } finally {
        session.stop();
        conn.close(1000);
      }
    },
  };
}

function parseMessage(text: string, provider: string, hadOutput: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(`Malformed JSON message on the listen socket (${text.length} chars)`, {
      provider,
      partialOutput: hadOutput,
      cause,
    });
  }
}
