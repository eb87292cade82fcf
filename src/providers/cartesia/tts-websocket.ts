import { AbortError, ProtocolError, TimeoutError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import { markRouterStall } from '../../internal/stall.js';
import { PhaseDeadlines } from '../../transport/phase-deadlines.js';
import { AwaitedText } from '../shared/awaited-text.js';
import { parseWire } from '../shared/parse-wire.js';
import { ReplayableInput } from '../shared/replayable-input.js';
import { type StreamedText, textPiece } from '../shared/text-piece.js';
import { withPartialOutput } from '../shared/with-partial-output.js';
import type { AttemptContext } from '../types.js';
import { ttsEventSchema } from './api-types.js';
import type { CartesiaEndpoint } from './endpoint.js';
import { forwardInput } from './forward-input.js';
import { Inbox } from './inbox.js';
import type { CartesiaTtsOptions } from './options.js';
import type { TtsSocketPool } from './socket-pool.js';
import { type CartesiaAudio, TtsEventReader } from './tts-events.js';
import { type CartesiaTtsRequest, contextRequest, ttsBody } from './tts-request.js';
import type { ContextListener, TtsSocket } from './tts-socket.js';

let contextCount = 0;

/** The `data` of an item that only reports progress (`clausesDone`). */
const NO_AUDIO = new Uint8Array(0);

/** A context id unique in this process: `voxroute-<n>-<random>`. */
function newContextId(): string {
  contextCount = (contextCount + 1) % Number.MAX_SAFE_INTEGER;
  return `voxroute-${contextCount}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * How a context ended, which decides what happens to its socket: kept warm after `done` or an
 * `error` message (the server ended the context and the socket is sound) and after
 * `cancelled` (the caller's text failed: the context is cancelled, the socket is sound), closed
 * otherwise (`broken`).
 */
type Outcome = 'done' | 'error-event' | 'cancelled' | 'broken';

/**
 * TTS over `/tts/websocket` (PROTOCOLS.md 1.5), one context per call on a socket of `pool`
 * (warm when the previous call ended cleanly):
 * - text: a string is sent as one generation request with `continue: false`; an async
 *   iterable (streamed text, e.g. LLM tokens) as one request with `continue: true` per
 *   non-empty piece, as it arrives, and after a piece that ends a clause a flush
 *   (`{transcript: '', continue: true, flush: true}`, a separate message as PROTOCOLS.md 1.5
 *   says), then `{transcript: '', continue: false}` to end the input.
 *   Every request repeats `model_id`, `voice`, `output_format`, `language`,
 *   `generation_config`, `add_timestamps` and `max_buffer_delay_ms`, as the SDK does;
 * - answers: `chunk` (base64 audio, yielded labelled `request.format`), `timestamps` (attached
 *   to the next chunk as `words`, ms), `flush_done` (the answer to a flush: its audio is
 *   complete; yielded as an item with empty `data` and `clausesDone`, the clauses known
 *   complete: the answer's `flush_id`, but never more than the answers counted so far (each
 *   answering the oldest flush still unanswered, never more than were sent), and only when it
 *   grows), `done` (the end), `error` (ProviderError); messages of any other context are discarded. A `done`
 *   that arrives before the end of input (`continue: false`) was sent ends the context with
 *   text never spoken: a truncated ProtocolError (`partialOutput` when audio was yielded);
 * - deadlines (`attempt.deadlines`, from the moment the first request is sent, on `clock`):
 *   `firstByteMs` until the first audio (the router's first-chunk deadline bounds that wait
 *   too), `idleMs` between the provider's messages from the first audio on, while Cartesia
 *   owes an answer (a flush not yet answered by `flush_done`, or the end of input sent; see
 *   AwaitedText): a pause in streamed text is not the provider's silence, `totalMs`;
 *   not counted while the consumer holds a chunk. A passed one throws TimeoutError (`partialOutput` when audio was
 *   yielded; e.g. 3 chunks then silence -> phase `idle`);
 * - abort of `attempt.signal` (AbortError), the consumer leaving early, a deadline or any other
 *   failure but an `error` message or the text iterable's: sends `{context_id, cancel: true}`
 *   and closes the socket at once (a stalled socket is not trusted again; the next call gets a
 *   fresh one). When the text iterable throws, the context is cancelled the same way
 *   (PROTOCOLS.md 1.5) but the socket, which did nothing wrong, stays warm when still open:
 *   the clauses already flushed are spoken first (their audio is yielded up to the last
 *   `flush_done` owed), then only the text sent after the last flush is cancelled, and the
 *   text's error is thrown (at once when no flush is owed).
 *   After `done` or an `error` message the socket stays warm too. On a warm socket any late
 *   message of an ended context is discarded;
 * - the socket closing: an error close throws the transport's ProviderError (`status` = close
 *   code; a 1008 is retryable and not auth for a quota, concurrency, rate-limit or timeout
 *   reason, auth for a bad-key reason: `policyCloseVerdict`), a normal close before `done` a ProtocolError (truncated).
 *   A warm socket that closes after the request was sent but before any message of the
 *   context came back (the connection was dead) is not an answer: the text is sent once more
 *   on a fresh socket before anything is thrown, unless the caller aborted by then (even at the
 *   same moment the socket died): then AbortError (the signal's reason as its cause), not the
 *   dead socket's error, and nothing is sent again. A string as it is; streamed text as the
 *   pieces already read from the iterable (kept by reference until the context's first
 *   message, see ReplayableInput), then the rest of the iterable as it arrives: the fresh
 *   context gets every piece once, in order. Once a message of the context came, nothing is
 *   sent again (the failure is the router's mid-stream one).
 * Throws also what `pool.acquire` throws, ProviderError for an `error` event, ProtocolError for
 * a malformed message, and whatever the text iterable throws.
 */
export async function* synthesizeWebSocket(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  pool: TtsSocketPool,
  clock: Clock,
  request: CartesiaTtsRequest,
  attempt: AttemptContext,
): AsyncGenerator<CartesiaAudio> {
  if (attempt.signal.aborted) throw aborted(attempt);
  let { socket, reused } = await pool.acquire(attempt);
  // Streamed text sent on a warm socket is kept until the context's first message, to be sent
  // again should that socket turn out dead; a fresh socket is never replayed: no keeping.
  const kept = reused && typeof request.text !== 'string' ? new ReplayableInput(request.text) : undefined;
  const call: WebSocketCall = { endpoint, options, pool, clock, request, attempt };
  let text = kept?.pass() ?? request.text;
  try {
    for (;;) {
      const fate: ContextFate = { lost: false, heard: false, onHeard: () => kept?.settle() };
      try {
        yield* onSocket(call, socket, text, fate);
        return;
      } catch (error) {
        // C37: a warm socket that died after the request was sent and before any message of the
        // context came back: the text never reached a live server. Send it once more on a fresh
        // socket: a string as it is, streamed text from its first piece (kept until now).
        const replayable = typeof request.text === 'string' || kept?.replayable === true;
        const replay = reused && fate.lost && !fate.heard && replayable;
        if (!replay) throw error;
        // The caller aborted as the dead socket was found (its error came first): the abort
        // wins, with its reason; nothing is sent again.
        if (attempt.signal.aborted) throw AbortError.isInstance(error) ? error : aborted(attempt);
      }
      reused = false;
      ({ socket } = await pool.acquire(attempt));
      text = kept?.pass() ?? request.text;
      // The fresh socket is not replayed: each piece is released once it was read.
      kept?.settle();
    }
  } finally {
    kept?.close();
  }
}

/**
 * What became of a context's socket: `lost` when it closed under the context, `heard` once a
 * message of it came (`onHeard` is called then, once).
 */
interface ContextFate {
  lost: boolean;
  heard: boolean;
  onHeard: () => void;
}

/** The arguments of one {@link synthesizeWebSocket} call, as each socket it tries sees them. */
interface WebSocketCall {
  endpoint: CartesiaEndpoint;
  options: CartesiaTtsOptions;
  pool: TtsSocketPool;
  clock: Clock;
  request: CartesiaTtsRequest;
  attempt: AttemptContext;
}

/** The AbortError of an attempt whose signal fired (its reason as the cause). */
function aborted(attempt: AttemptContext): AbortError {
  return new AbortError('Cartesia TTS aborted', { cause: attempt.signal.reason });
}

/**
 * One context on `socket` speaking `text` (the request's, or a replay of it; see
 * {@link synthesizeWebSocket}); records in `fate` how the socket fared.
 */
async function* onSocket(
  call: WebSocketCall,
  socket: TtsSocket,
  text: string | StreamedText,
  fate: ContextFate,
): AsyncGenerator<CartesiaAudio> {
  const { endpoint, options, pool, clock, request, attempt } = call;
  const provider = endpoint.provider;
  const base = ttsBody(provider, request, options, '', options.addTimestamps ?? true);
  if (attempt.signal.aborted) {
    pool.release(socket, false);
    throw aborted(attempt);
  }
  const contextId = newContextId();
  const inbox = new Inbox<Record<string, unknown>>();
  const reader = new TtsEventReader(provider, request.format);
  const state: { outcome: Outcome } = { outcome: 'broken' };
  // Set once the whole text was sent: `done` before that ended the context early (truncated).
  // `flushesAnswered` counts the `flush_done` messages on arrival (the reader counts them as it
  // takes them): a `done` that arrives with a flush unanswered came before Cartesia spoke the
  // text of that flush, even when the end of input had already been sent by then.
  const input: { sentAll: () => boolean; doneEarly: boolean; flushesAnswered: number } = {
    sentAll: () => false,
    doneEarly: false,
    flushesAnswered: 0,
  };
  const listener: ContextListener = {
    contextId,
    message: (json) => {
      if (!fate.heard) {
        fate.heard = true;
        fate.onHeard();
      }
      // Judged on arrival: the text sender may send the end while this message waits in the inbox.
      if (json.type === 'flush_done') input.flushesAnswered++;
      if (json.type === 'done' && (!input.sentAll() || input.flushesAnswered < flushes.sent))
        input.doneEarly = true;
      inbox.push(json);
    },
    end: (error) => {
      // The socket is no longer usable once it closed (a malformed frame leaves it open).
      fate.lost = !socket.usable;
      inbox.fail(
        error === undefined
          ? new ProtocolError('Cartesia closed the WebSocket before the done message (truncated)', {
              provider,
              partialOutput: reader.hadOutput,
            })
          : withPartialOutput(error, reader.hadOutput),
      );
    },
  };
  const deadlines = new PhaseDeadlines(
    clock,
    {
      firstByteMs: attempt.deadlines.firstByteMs,
      idleMs: attempt.deadlines.idleMs,
      totalMs: attempt.deadlines.totalMs,
    },
    false,
    // A deadline that passed while the event loop was blocked is the router's stall.
    (phase, timeoutMs, stalled) => {
      const error = new TimeoutError(phase, timeoutMs, { provider, partialOutput: reader.hadOutput });
      inbox.fail(stalled ? markRouterStall(error) : error);
    },
  );
  // The idle deadline runs only after the first audio and while Cartesia owes an answer (an
  // unanswered flush, or the end of input sent): waiting for the caller's next text is not its
  // silence, and the wait for the first audio is the first-chunk deadline's.
  const awaited = new AwaitedText((counts) => deadlines.holdIdle(!counts));
  deadlines.holdIdle(true);
  /**
   * Flushes sent; how many `flush_done` messages answered them; and how many clauses are known
   * complete (reported as `clausesDone`): the `flush_id` of an answer when it carries one
   * (PROTOCOLS.md 1.5: it counts the context's flushes from 1), never more than the answers
   * counted, so a repeated or misnumbered answer cannot mark a clause heard before its audio.
   */
  const flushes = { sent: 0, answered: 0, done: 0 };
  const onAbort = () => inbox.fail(aborted(attempt));
  attempt.signal.addEventListener('abort', onAbort, { once: true });
  socket.attach(listener);
  const send = (transcript: string, more: boolean) => {
    const sent = socket.send(contextRequest(base, contextId, transcript, more, options.maxBufferDelayMs));
    if (sent && !more) awaited.inputEnded();
    return sent;
  };
  const flush = () => {
    const sent = socket.send({
      ...contextRequest(base, contextId, '', true, options.maxBufferDelayMs),
      flush: true,
    });
    if (sent) {
      flushes.sent++;
      awaited.flushed();
    }
    return sent;
  };
  // The text iterable's own error, when it threw (the caller's text failed, not the socket).
  let textFailure: { error: unknown } | undefined;
  /** True once every flush sent was answered: the clauses asked for have all been spoken. */
  const flushesAnswered = () => flushes.answered >= flushes.sent;
  const failText = (error: unknown) => {
    textFailure ??= { error };
    // The clauses already flushed are spoken to their end first (their `flush_done`): only the
    // text after the last flush, never asked for, is cancelled.
    if (flushesAnswered()) inbox.fail(error);
  };
  // Our own text pieces are not the provider's activity: while a flush is owed, a caller
  // streaming tokens must not hide Cartesia's silence.
  const sender = sendText(text, send, flush, { fail: failText });
  input.sentAll = () => sender.sentAll();
  // The socket is open: what remains is the answer (first audio, then idle; see AwaitedText).
  deadlines.markHeaders();
  try {
    for (;;) {
      const raw = await inbox.take();
      deadlines.activity();
      const event = parseWire(ttsEventSchema(), raw, provider, 'TTS message', reader.hadOutput);
      // An error message ends the context on the server's side; reader.push throws it.
      if (event.type === 'error') state.outcome = 'error-event';
      const step = reader.push(event);
      if (step.audio) {
        deadlines.markFirstByte();
        awaited.audio();
        deadlines.setPaused(true);
        yield step.audio;
        deadlines.setPaused(false);
      }
      if (event.type === 'flush_done' && flushes.answered < flushes.sent) {
        // Everything before the flush was spoken: its audio all came before this answer.
        flushes.answered++;
        awaited.flushAnswered();
        const id = (event as { flush_id?: unknown }).flush_id;
        const done =
          typeof id === 'number' && Number.isInteger(id) && id > 0
            ? Math.min(id, flushes.answered)
            : flushes.answered;
        if (done > flushes.done) {
          flushes.done = done;
          deadlines.setPaused(true);
          yield { data: NO_AUDIO, format: request.format, clausesDone: done };
          deadlines.setPaused(false);
        }
        // The caller's text failed: the clauses it flushed are spoken, the rest is cancelled.
        if (textFailure && flushesAnswered()) throw textFailure.error;
      }
      if (step.done) {
        if (input.doneEarly) {
          // A flush is answered by `flush_done`; `done` ends the context, so the text not yet
          // sent (or sent but not spoken: a flush still unanswered) would never be spoken. The
          // socket is not kept (the context may still be open).
          throw new ProtocolError(
            'Cartesia sent done for the context before the end of the text (truncated)',
            { provider, partialOutput: reader.hadOutput },
          );
        }
        state.outcome = 'done';
        reader.end();
        return;
      }
    }
  } catch (error) {
    // The caller's text ended the context: cancelled below, the socket kept.
    if (textFailure && error === textFailure.error) state.outcome = 'cancelled';
    throw error;
  } finally {
    deadlines.stop();
    attempt.signal.removeEventListener('abort', onAbort);
    socket.detach(listener);
    sender.stop();
    const { outcome } = state;
    if (outcome === 'broken' || outcome === 'cancelled') socket.send({ context_id: contextId, cancel: true });
    pool.release(socket, outcome === 'cancelled' || (outcome !== 'broken' && sender.sentAll()));
  }
}

/** A piece of text that ends a clause or a sentence (closing quotes and white space allowed). */
const CLAUSE_END = /[,;:.!?\u2013\u2014]["'\u201d\u2019)\]]*\s*$/;

/** A plain string piece ends a clause by the adapter's own rule (router pieces say it themselves). */
const endsClause = (text: string): boolean => CLAUSE_END.test(text);

/** The task that sends a context's text; see {@link sendText}. */
interface TextSender {
  /** Stops reading the text (closes the iterable). */
  stop(): void;
  /** True once the whole text was sent (the last request had `continue: false`). */
  sentAll(): boolean;
}

/**
 * Sends `text` through `send(transcript, more)`: a string at once; an iterable piece by piece
 * as it arrives (a non-empty text with `continue: true`, then `flush()` when the piece ends a
 * clause: a router piece's `clauseEnd`, or for a plain string the adapter's own rule), then the
 * end of input. Stops when `send` returns false (the socket closed: the pump reports why). A
 * failing iterable fails `inbox`.
 */
function sendText(
  text: string | StreamedText,
  send: (transcript: string, more: boolean) => boolean,
  flush: () => boolean,
  inbox: { fail(error: unknown): void },
): TextSender {
  if (typeof text === 'string') {
    const all = send(text, false);
    return { stop() {}, sentAll: () => all };
  }
  const forwarder = forwardInput(text, {
    skip: (item) => {
      const piece = textPiece(item, endsClause);
      return piece === undefined || (piece.text === '' && !piece.clauseEnd);
    },
    send: (item) => {
      const piece = textPiece(item, endsClause)!;
      if (piece.text !== '' && !send(piece.text, true)) return false;
      // A piece that ends a clause is generated now rather than after the buffer delay.
      if (piece.clauseEnd && !flush()) return false;
      return true;
    },
    end: () => send('', false),
    fail: (error) => inbox.fail(error),
  });
  return { stop: () => forwarder.stop(), sentAll: () => forwarder.ended() };
}
