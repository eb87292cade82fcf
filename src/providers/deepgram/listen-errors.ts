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
 *   (e.g. `'NET-0001'` for the inactivity close 1011: retryable, with `idleTimeout: true`, the
 *   typed idle timeout for no audio), `connectionLost: true` for 1006 / 1001 (the connection
 *   dropped or went away), `retryable` from {@link isRetryableListenClose}, `isAuthError` for a
 *   1008 only when its reason names an auth failure (`policyCloseVerdict`), and `partialOutput`;
 * - any other ProviderError, a ProtocolError or a TimeoutError gets `partialOutput` set;
 * - anything else (AbortError, ...) is returned as it is.
 * `close` is how the socket closed, when known (its reason is read for the Deepgram code).
 */
export function listenError(
  error: unknown,
  close: WebSocketClose | undefined,
  partialOutput: boolean,
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
    const idleTimeout = deepgramCode === 'NET-0001';
    const connectionLost = isClose && isLostConnection(status) && !idleTimeout;
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
