import { grownCooldownMs, retryAfterCooldownMs } from './cooldown.js';
import { type CircuitBreakerOptions, type ResolvedBreakerOptions, resolveBreakerOptions } from './options.js';
import { OutcomeWindow } from './outcome-window.js';
import type {
  BreakerFailure,
  BreakerListener,
  BreakerReason,
  BreakerSnapshot,
  BreakerState,
  BreakerStateChange,
} from './types.js';

/**
 * A circuit breaker for one (provider, capability): pure logic over an injected clock, with no
 * timer. The state is computed lazily: an open breaker whose cooldown has ended becomes
 * half-open the next time any method looks at it (and its listeners hear of it then, with
 * `at` = the end of the cooldown).
 *
 * - closed: calls flow. It opens at the `failureThreshold`-th consecutive counted failure
 *   (default 5), or at a counted failure that brings the error rate of the recent window
 *   (at most `windowSize` = 20 calls, none older than `windowMs` = 30 s) to
 *   `errorRateThreshold` (0.5) once the window holds `minCalls` (10) calls. A failure carrying a
 *   Retry-After opens it at once; an auth failure opens it at once for `authCooldownMs` (5 min)
 *   and marks it `misconfigured`.
 * - open: {@link allows} and {@link tryAcquire} say no until the cooldown ends. The cooldown of
 *   the n-th opening in a row is `baseCooldownMs * cooldownMultiplier^(n-1)` capped at
 *   `maxCooldownMs` (1 s, 2 s, 4 s ... 60 s), jittered by +-`jitter` (20%), and never shorter
 *   than a Retry-After the provider sent (capped at `maxRetryAfterMs`, 10 min). A later
 *   Retry-After or auth failure can lengthen the cooldown, never shorten it.
 * - half-open: exactly one caller gets `true` from {@link tryAcquire} (the probe); others get
 *   `false` until the probe settles. Any success recorded now closes the breaker (and resets the
 *   growth and the misconfigured flag); any counted failure opens it again with the next, longer
 *   cooldown. {@link release} (or a `'cancelled'` failure) frees the slot of a probe that was
 *   cancelled; a slot held longer than `probeTimeoutMs` (30 s) is freed as lost.
 *
 * Usage by a router: skip the candidate unless `tryAcquire()`; then exactly one of
 * `recordSuccess()`, `recordFailure(failure)` or `release()` when the attempt settles.
 * Outcomes recorded while open (calls started before it opened) change nothing, except that a
 * Retry-After or an auth failure among them lengthens the cooldown.
 *
 * Every method takes an optional `now` (ms on the breaker's clock, default `clock.now()`) for a
 * caller that has already read the clock; it must not go backwards.
 */
export class CircuitBreaker {
  readonly #o: ResolvedBreakerOptions;
  readonly #window: OutcomeWindow;
  readonly #listeners = new Set<BreakerListener>();
  #state: BreakerState = 'closed';
  #consecutive = 0;
  #openings = 0;
  #misconfigured = false;
  #openedAt: number | undefined;
  #reopenAt: number | undefined;
  #openReason: BreakerReason | undefined;
  /** When the half-open probe slot was taken; undefined while it is free. */
  #probeTakenAt: number | undefined;
  /**
   * Asked (synchronously) before a half-open breaker lets a probe go: false keeps the probe back
   * (another process of the fleet is probing). Unset: always true.
   */
  probeGate: (() => boolean) | undefined;

  /**
   * @param options see {@link CircuitBreakerOptions}; every field has a default.
   * @throws ConfigError when an option is out of range (each bad option is an issue with its name as path).
   */
  constructor(options: CircuitBreakerOptions = {}) {
    this.#o = resolveBreakerOptions(options);
    this.#window = new OutcomeWindow(this.#o.windowSize, this.#o.windowMs);
  }

  /** The current state ('closed' | 'open' | 'half-open'), computed from the clock. */
  state(now: number = this.#o.clock.now()): BreakerState {
    this.#refresh(now);
    return this.#state;
  }

  /**
   * Whether a call may go now, without taking anything: true when closed, or half-open with the
   * probe slot free; false when open or while the probe is out. Use it to filter candidates;
   * call {@link tryAcquire} before actually starting the call.
   */
  allows(now: number = this.#o.clock.now()): boolean {
    this.#refresh(now);
    if (this.#state === 'closed') return true;
    return this.#state === 'half-open' && this.#probeTakenAt === undefined && this.probeGate?.() !== false;
  }

  /**
   * Asks to start a call: true when closed (nothing is taken), or when half-open with the probe
   * slot free (the slot is taken: this call is the probe, and every other caller gets false until
   * its outcome is recorded or it is released). False when open or while the probe is out.
   */
  tryAcquire(now: number = this.#o.clock.now()): boolean {
    this.#refresh(now);
    if (this.#state === 'closed') return true;
    if (this.#state === 'open' || this.#probeTakenAt !== undefined) return false;
    if (this.probeGate?.() === false) return false;
    this.#probeTakenAt = now;
    return true;
  }

  /**
   * Records a successful call. Closed: resets the consecutive failures and adds a success to
   * the error-rate window. Half-open: the probe succeeded, the breaker closes (reason
   * `'probe-succeeded'`), the cooldown growth, the window and `misconfigured` reset. Open: ignored.
   */
  recordSuccess(now: number = this.#o.clock.now()): void {
    this.#refresh(now);
    if (this.#state === 'closed') {
      this.#consecutive = 0;
      this.#window.prune(now);
      this.#window.push(now, false);
    } else if (this.#state === 'half-open') {
      this.#close(now, 'probe-succeeded');
    }
  }

  /**
   * Records a failed (or unfinished) call, charged by `failure.kind` (see
   * `BreakerFailureKind`; default `'failure'`, or `'auth'` when `failure.auth`):
   * - `'ignored'`: nothing changes (a probe slot held by the attempt stays held);
   * - `'cancelled'`: same as {@link release};
   * - `'failure'` / `'auth'` when closed: counted (consecutive failures, window); opens the
   *   breaker for `'auth'` (reason `'auth'`), for a positive `retryAfterMs` (`'retry-after'`, if
   *   `respectRetryAfter`), at `failureThreshold` consecutive failures (`'consecutive-failures'`)
   *   or at the error-rate threshold (`'error-rate'`), checked in that order;
   * - when half-open: the probe failed, the breaker opens again (`'probe-failed'`, or `'auth'`)
   *   with the next, longer cooldown;
   * - when open (a call started before it opened): not counted, but `'auth'` marks it
   *   misconfigured and both `'auth'` and a Retry-After may lengthen the cooldown (never shorten it).
   */
  recordFailure(failure: BreakerFailure = {}, now: number = this.#o.clock.now()): void {
    const kind =
      failure.kind === undefined || failure.kind === 'failure'
        ? failure.auth
          ? 'auth'
          : 'failure'
        : failure.kind;
    if (kind === 'ignored') return;
    if (kind === 'cancelled') {
      this.release(now);
      return;
    }
    this.#refresh(now);
    const auth = kind === 'auth';
    const retryMs = retryAfterCooldownMs(failure.retryAfterMs, this.#o.maxRetryAfterMs);
    if (this.#state === 'open') {
      if (auth) {
        this.#misconfigured = true;
        this.#openReason = 'auth';
        this.#extend(now + this.#o.authCooldownMs);
      }
      if (retryMs > 0) this.#extend(now + retryMs);
      return;
    }
    this.#consecutive++;
    if (this.#state === 'half-open') {
      this.#open(now, auth ? 'auth' : 'probe-failed', auth, retryMs);
      return;
    }
    this.#window.prune(now);
    this.#window.push(now, true);
    if (auth) this.#open(now, 'auth', true, retryMs);
    else if (retryMs > 0 && this.#o.respectRetryAfter) this.#open(now, 'retry-after', false, retryMs);
    else if (this.#consecutive >= this.#o.failureThreshold)
      this.#open(now, 'consecutive-failures', false, retryMs);
    else if (this.#window.calls >= this.#o.minCalls && this.#window.rate >= this.#o.errorRateThreshold)
      this.#open(now, 'error-rate', false, retryMs);
  }

  /**
   * Opens the breaker until `reopenAt` (ms on the breaker's clock) because of what another
   * process of the fleet saw (reason `'fleet'` by default): a closed or half-open breaker opens
   * (an opening like any other for the cooldown growth); an open one only gets a longer
   * cooldown, never a shorter one. A `reopenAt` not after `now` changes nothing.
   */
  openUntil(reopenAt: number, reason: BreakerReason = 'fleet', now: number = this.#o.clock.now()): void {
    this.#refresh(now);
    if (reopenAt <= now) return;
    if (this.#state === 'open') this.#extend(reopenAt);
    else this.#open(now, reason, false, 0, reopenAt - now);
  }

  /**
   * Frees the half-open probe slot of a call that was cancelled before it settled (the caller
   * aborted, barge-in, the hedge loser): nothing is charged and the next caller may probe.
   * A no-op in any other state or when no probe is out.
   */
  release(now: number = this.#o.clock.now()): void {
    this.#refresh(now);
    if (this.#state === 'half-open') this.#probeTakenAt = undefined;
  }

  /**
   * Closes the breaker and forgets everything (failures, window, growth, misconfigured), e.g.
   * after the provider's config was fixed. Emits `'reset'` when it was not closed.
   */
  reset(now: number = this.#o.clock.now()): void {
    this.#refresh(now);
    this.#close(now, 'reset');
  }

  /** The breaker's state and counters now (see {@link BreakerSnapshot}). */
  snapshot(now: number = this.#o.clock.now()): BreakerSnapshot {
    this.#refresh(now);
    this.#window.prune(now);
    return {
      state: this.#state,
      consecutiveFailures: this.#consecutive,
      calls: this.#window.calls,
      errorRate: this.#window.rate,
      openedAt: this.#openedAt,
      reopenAt: this.#state === 'open' ? this.#reopenAt : undefined,
      openReason: this.#openReason,
      openings: this.#openings,
      misconfigured: this.#misconfigured,
      probeInFlight: this.#probeTakenAt !== undefined,
    };
  }

  /**
   * Subscribes to state changes; returns a function that unsubscribes (calling it twice is
   * harmless). Listeners run synchronously, in subscription order, after the breaker's state is
   * updated. A listener that throws is reported to `onListenerError` and the others still run.
   */
  onStateChange(listener: BreakerListener): () => void {
    const entry: BreakerListener = (change) => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Turns an ended cooldown into half-open, and frees a probe slot held past `probeTimeoutMs`. */
  #refresh(now: number): void {
    if (this.#state === 'open' && now >= this.#reopenAt!) {
      const at = this.#reopenAt!;
      this.#state = 'half-open';
      this.#probeTakenAt = undefined;
      this.#emit({ from: 'open', to: 'half-open', reason: 'cooldown-elapsed', at });
    }
    if (
      this.#state === 'half-open' &&
      this.#probeTakenAt !== undefined &&
      now - this.#probeTakenAt >= this.#o.probeTimeoutMs
    ) {
      this.#probeTakenAt = undefined;
    }
  }

  #open(now: number, reason: BreakerReason, auth: boolean, retryMs: number, fixedMs?: number): void {
    const from = this.#state;
    this.#openings++;
    if (auth) this.#misconfigured = true;
    const cooldown =
      fixedMs ?? Math.max(auth ? this.#o.authCooldownMs : grownCooldownMs(this.#openings, this.#o), retryMs);
    this.#state = 'open';
    this.#openedAt = now;
    this.#reopenAt = now + cooldown;
    this.#openReason = reason;
    this.#probeTakenAt = undefined;
    this.#emit({ from, to: 'open', reason, at: now, cooldownMs: cooldown, reopenAt: this.#reopenAt });
  }

  #extend(reopenAt: number): void {
    if (reopenAt > this.#reopenAt!) this.#reopenAt = reopenAt;
  }

  #close(now: number, reason: BreakerReason): void {
    const from = this.#state;
    this.#state = 'closed';
    this.#consecutive = 0;
    this.#openings = 0;
    this.#misconfigured = false;
    this.#openedAt = undefined;
    this.#reopenAt = undefined;
    this.#openReason = undefined;
    this.#probeTakenAt = undefined;
    this.#window.clear();
    if (from !== 'closed') this.#emit({ from, to: 'closed', reason, at: now });
  }

  #emit(change: BreakerStateChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#o.onListenerError(error);
      }
    }
  }
}
