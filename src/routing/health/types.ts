/**
 * State of a {@link CircuitBreaker}, with the standard names:
 * - `'closed'`: calls flow; outcomes are counted;
 * - `'open'`: no call is sent until the cooldown ends (`reopenAt`);
 * - `'half-open'`: the cooldown is over; exactly one probe call may go, and its outcome decides
 *   between `'closed'` (success) and `'open'` again with a longer cooldown (failure).
 */
export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * How a failed or unfinished attempt is charged to a breaker:
 * - `'failure'`: counted (network errors including a refused connection, 408, 429, 5xx,
 *   deadlines, malformed streams, 404, a WebSocket close 1008 for a quota, concurrency, rate
 *   limit or input timeout, an ElevenLabs 401 `quota_exceeded`, an unknown model or voice...);
 * - `'auth'`: counted, and opens the breaker at once for the long `authCooldownMs` and marks it
 *   `misconfigured` (401, 403, a WebSocket close 1008 whose reason names an auth failure: a bad
 *   key or a missing permission does not fix itself in a second);
 * - `'ignored'`: not the provider's fault and the attempt goes on, e.g. a reset of a reused idle
 *   keep-alive socket before any response byte, which the caller retries once on a fresh
 *   connection: nothing is counted and a probe slot held by the attempt stays held;
 * - `'cancelled'`: the attempt is over but says nothing about the provider (the caller aborted,
 *   barge-in, a hedge loser, a request the provider rightly refused as bad): nothing is counted
 *   and a probe slot held by the attempt is freed, exactly as {@link CircuitBreaker.release}.
 */
export type BreakerFailureKind = 'failure' | 'auth' | 'ignored' | 'cancelled';

/** A failure as {@link CircuitBreaker.recordFailure} takes it. */
export interface BreakerFailure {
  /** How to charge it. Default: `'auth'` when `auth` is true, else `'failure'`. */
  kind?: BreakerFailureKind;
  /**
   * Shorthand for `kind: 'auth'` (401, 403, WebSocket close 1008 with an auth reason;
   * `ProviderError.isAuthError`).
   * It turns a `'failure'` into `'auth'`; an `'ignored'` or `'cancelled'` kind wins over it.
   * Default: false.
   */
  auth?: boolean;
  /**
   * How long the provider asked us to wait, in ms (`ProviderError.retryAfterMs`, parsed by the
   * transport from `Retry-After` in seconds or as an HTTP-date, or from `retry-after-ms`).
   * A positive value opens the breaker at once (unless `respectRetryAfter` is false) for at least
   * this long, capped at `maxRetryAfterMs`. Ignored for `'ignored'` and `'cancelled'`.
   */
  retryAfterMs?: number;
}

/** Why a breaker changed state (the `reason` of a {@link BreakerStateChange}). */
export type BreakerReason =
  /** `failureThreshold` consecutive failures (closed -> open). */
  | 'consecutive-failures'
  /** The error rate of the recent window reached `errorRateThreshold` (closed -> open). */
  | 'error-rate'
  /** A failure carried a Retry-After (closed -> open). */
  | 'retry-after'
  /** An auth/misconfiguration failure (closed or half-open -> open). */
  | 'auth'
  /** The cooldown ended (open -> half-open). */
  | 'cooldown-elapsed'
  /** The half-open probe succeeded (half-open -> closed). */
  | 'probe-succeeded'
  /** The half-open probe failed (half-open -> open). */
  | 'probe-failed'
  /** {@link CircuitBreaker.reset} was called (any -> closed). */
  | 'reset'
  /** Another process of the fleet opened its breaker (closed or half-open -> open; `openUntil`). */
  | 'fleet';

/** One state change of a breaker, as its `onStateChange` listeners receive it. */
export interface BreakerStateChange {
  from: BreakerState;
  to: BreakerState;
  reason: BreakerReason;
  /**
   * When the change took effect, in ms on the breaker's clock. For `'cooldown-elapsed'` this is
   * the end of the cooldown (`reopenAt`), even when the change is noticed later (the state is
   * computed lazily from the clock; no timer runs).
   */
  at: number;
  /** When `to` is `'open'`: the length of the cooldown, in ms. */
  cooldownMs?: number;
  /** When `to` is `'open'`: when the cooldown ends, in ms on the breaker's clock. */
  reopenAt?: number;
}

/** A listener of breaker state changes. It should not throw (see `onListenerError`). */
export type BreakerListener = (change: BreakerStateChange) => void;

/** What {@link CircuitBreaker.snapshot} reports. Times are ms on the breaker's clock. */
export interface BreakerSnapshot {
  state: BreakerState;
  /** Failures since the last success (or since the breaker closed). */
  consecutiveFailures: number;
  /** Counted calls in the error-rate window (at most `windowSize`, none older than `windowMs`). */
  calls: number;
  /** Share of failures among those calls, in [0, 1]; 0 when there are none. */
  errorRate: number;
  /** When the breaker last opened; undefined when it is closed. */
  openedAt: number | undefined;
  /** When the current cooldown ends; defined only while the state is `'open'`. */
  reopenAt: number | undefined;
  /** Why the breaker last opened; undefined when it is closed. */
  openReason: BreakerReason | undefined;
  /** Openings since the breaker was last closed by a successful probe (drives cooldown growth). */
  openings: number;
  /** True once an auth/misconfiguration failure opened it, until a probe succeeds. */
  misconfigured: boolean;
  /** True while the half-open probe slot is taken. */
  probeInFlight: boolean;
}
