import { ProviderError } from '../../errors/index.js';
import { policyCloseVerdict } from '../../transport/index.js';
import type { WebSocketClose } from '../../transport/websocket-types.js';
import { withPartialOutput } from '../shared/with-partial-output.js';

/**
 * Deepgram's error code in a close reason, normalised to the documented form `NET-0001`,
 * `DATA-0000` (PROTOCOLS.md 3.2, DGDOC-stt-troubleshooting-websocket-data-and-net-errors):
 * `net0001`, `NET-0001` and `NET0001` all give `'NET-0001'`. Undefined when the reason has none.
 */
export function deepgramCloseCode(reason: string): string | undefined {
  const match = /\b(NET|DATA)-?(\d{4})\b/i.exec(reason);
  return match ? `${match[1]!.toUpperCase()}-${match[2]}` : undefined;
}

/**
 * Deepgram's inactivity window: it closes a listen socket with `NET-0001` when it received no
 * audio and no text message for 10 s (PROTOCOLS.md 3.2, DGDOC-audio-keep-alive).
 */
export const DEEPGRAM_IDLE_WINDOW_MS = 10_000;

/**
 * Least time without audio sent, in ms, for a `NET-0001` close to count as an inactivity close:
 * half of {@link DEEPGRAM_IDLE_WINDOW_MS}. A genuine one comes at least the whole window after
 * the last audio this client sent (Deepgram's timer starts when the audio arrives, later still);
 * the margin keeps a close of a server whose window is somewhat shorter an inactivity close. A
 * `NET-0001` while audio was flowing (sent within this time) is not about inactivity: an
 * ordinary retryable failure.
 */
export const NET_0001_MIN_QUIET_MS = DEEPGRAM_IDLE_WINDOW_MS / 2;

/**
 * True when a close with `deepgramCode` is Deepgram's inactivity close: `NET-0001`, with no
 * audio sent for `msSinceAudio` >= {@link NET_0001_MIN_QUIET_MS}.
 */
export function isInactivityClose(deepgramCode: string | undefined, msSinceAudio: number): boolean {
  return deepgramCode === 'NET-0001' && msSinceAudio >= NET_0001_MIN_QUIET_MS;
}

/**
 * Whether another attempt may succeed after Deepgram closed a socket whose reason held
 * `deepgramCode` ({@link deepgramCloseCode}), given `fallback`, the verdict for the close itself:
 * - `DATA-*` reasons (the audio itself is wrong, e.g. it cannot be decoded) are not retryable,
 *   whatever the code;
 * - `NET-*` reasons (network trouble, NET-0001: no audio or text within the timeout window) are;
 * - anything else keeps `fallback`: the transport's verdict for the close, which for a 1008
 *   (policy violation) is the one rule for 1008 (`policyCloseVerdict` of its reason: retryable
 *   for a quota, rate limit, concurrency or timeout; not for a bad key or an unexplained 1008).
 */
export function isRetryableListenClose(deepgramCode: string | undefined, fallback: boolean): boolean {
  if (deepgramCode?.startsWith('DATA-')) return false;
  if (deepgramCode?.startsWith('NET-')) return true;
  return fallback;
}

/**
 * The error the listen adapter throws for `error`, a failure of its socket:
 * - a ProviderError whose `status` is a WebSocket close code (1000-4999) becomes a ProviderError
 *   with the same status and message, `providerCode` = Deepgram's code from the close reason
 *   (e.g. `'NET-0001'` for the inactivity close 1011: retryable), `idleTimeout: true` (the typed
 *   idle timeout for no audio) for a `NET-0001` when no audio was sent for `msSinceAudio` >=
 *   {@link NET_0001_MIN_QUIET_MS} ({@link isInactivityClose}; while audio flowed it is an
 *   ordinary retryable failure), `connectionLost: true` for 1006 / 1001 (the connection
 *   dropped or went away), `retryable` from {@link isRetryableListenClose}, `isAuthError` for a
 *   1008 only when its reason names an auth failure (`policyCloseVerdict`), and `partialOutput`;
 * - any other ProviderError, a ProtocolError or a TimeoutError gets `partialOutput` set;
 * - anything else (AbortError, ...) is returned as it is.
 * `close` is how the socket closed, when known (its reason is read for the Deepgram code).
 * `msSinceAudio`: ms since the adapter last sent audio on the socket (since it opened, when it
 * sent none).
 */
export function listenError(
  error: unknown,
  close: WebSocketClose | undefined,
  partialOutput: boolean,
  msSinceAudio: number,
): unknown {
  if (ProviderError.isInstance(error)) {
    const status = error.status;
    const isClose = status !== undefined && status >= 1000 && status <= 4999;
    const deepgramCode = isClose ? deepgramCloseCode(close?.reason ?? error.message) : undefined;
    // Without the close itself, the transport's error already applied the 1008 rule to the
    // reason; its message (which names the provider) is not read for it.
    const verdict = status === 1008 && close !== undefined ? policyCloseVerdict(close.reason) : undefined;
    const retryable = isClose
      ? isRetryableListenClose(deepgramCode, verdict?.retryable ?? error.retryable)
      : error.retryable;
    // A 1008 is an auth failure only when its reason says so (never for a DATA-* or a quota).
    const authError =
      deepgramCode === undefined ? (verdict?.authError ?? error.isAuthError) : error.isAuthError;
    const idleTimeout = isInactivityClose(deepgramCode, msSinceAudio);
    const connectionLost = isClose && isLostConnection(status) && deepgramCode !== 'NET-0001';
    if (
      error.idleTimeout === idleTimeout &&
      error.connectionLost === connectionLost &&
      error.partialOutput === partialOutput &&
      error.retryable === retryable &&
      error.isAuthError === authError &&
      (deepgramCode === undefined || error.providerCode === deepgramCode)
    ) {
      return error;
    }
    return new ProviderError(error.message, {
      provider: error.provider ?? '',
      status,
      providerCode: deepgramCode ?? error.providerCode,
      providerType: error.providerType,
      retryAfterMs: error.retryAfterMs,
      retryable,
      partialOutput,
      authError,
      unknownModel: error.unknownModel,
      idleTimeout,
      connectionLost,
      cause: error,
    });
  }
  return withPartialOutput(error, partialOutput);
}

/**
 * A close that says the connection went away rather than that Deepgram refused anything: 1006
 * (no close frame: the TCP connection dropped, e.g. a load balancer or NAT idle timeout) and
 * 1001 (going away: a server or proxy shutting down), RFC 6455 §7.4.1.
 */
function isLostConnection(code: number): boolean {
  return code === 1006 || code === 1001;
}
