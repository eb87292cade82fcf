import { ProviderError } from '../../errors/provider-error.js';
import { canFallBack } from '../classify.js';
import type { BreakerFailure } from './types.js';

/** What the caller knows about a failed attempt beyond its error. */
export interface FailureContext {
  /** The attempt was cancelled by us: the caller aborted, barge-in, or it lost a hedge. Default: false. */
  cancelled?: boolean;
  /**
   * The error is a reset of a reused idle keep-alive socket before any response byte, which the
   * caller retries once on a fresh connection: not the provider's fault. Default: false.
   */
  reusedSocketReset?: boolean;
  /**
   * A deadline passed while the router's event loop was blocked (src/internal/stall.ts): the
   * router's stall, not the provider's. Default: false.
   */
  routerStall?: boolean;
}

/**
 * How a failed attempt's error is charged to its breaker (see `BreakerFailureKind`):
 * - `'cancelled'` when `context.cancelled`, for an abort (`AbortError`, ours or the standard
 *   DOMException), and for errors that are not the provider's fault as `canFallBack` classes
 *   them (a request the provider called bad: 400, 413, 422; usage and config errors);
 * - `'ignored'` when `context.reusedSocketReset` or `context.routerStall`;
 * - `'auth'` for a ProviderError whose `isAuthError` is true: 401, 403, 3000 / 3003, and a
 *   WebSocket close 1008 whose reason names an auth failure (a 1008 for a quota, concurrency or
 *   rate limit, or an input timeout, is not auth), and an ElevenLabs 401 only when it is not
 *   `quota_exceeded` / `detected_unusual_activity`;
 * - `'failure'` for everything else: network errors (a refused connection included), 404, 408,
 *   429, 5xx, a transient 1008 or 401 as above, an unknown model or voice
 *   (`ProviderError.unknownModel`, even on a 400), deadlines (`TimeoutError`), malformed streams
 *   (`ProtocolError`), unknown errors.
 * A ProviderError's `retryAfterMs` is carried over for `'auth'` and `'failure'`.
 */
export function breakerFailureOf(error: unknown, context: FailureContext = {}): BreakerFailure {
  if (context.cancelled || isAbort(error)) return { kind: 'cancelled' };
  if (context.reusedSocketReset || context.routerStall) return { kind: 'ignored' };
  if (!canFallBack(error)) return { kind: 'cancelled' };
  if (ProviderError.isInstance(error)) {
    const kind = error.isAuthError ? 'auth' : 'failure';
    return error.retryAfterMs === undefined ? { kind } : { kind, retryAfterMs: error.retryAfterMs };
  }
  return { kind: 'failure' };
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
