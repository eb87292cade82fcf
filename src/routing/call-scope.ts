import { AbortError } from '../errors/abort-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import type { Clock } from '../internal/clock.js';

/**
 * The abort scope of one routed call: one AbortController, aborted by the caller's signal, by
 * `router.close()`, by the call's total deadline (TimeoutError phase `total`) and by the
 * consumer's `return()` (a barge-in, which aborts {@link controller} directly). It listens on
 * the two outer signals as an EventListener object (no closure per call) until
 * {@link dispose}.
 */
export class CallScope {
  /** The call's controller: every attempt's signal follows it. */
  readonly controller: AbortController;
  readonly #signal: AbortSignal | undefined;
  readonly #closeSignal: AbortSignal;
  readonly #clock: Clock;
  #budgetTimer: unknown;
  /**
   * Why the call's only attempt, which runs on the call's signal, was stopped: the signal is
   * aborted with it when the call ends (see {@link closeShared}), so that the attempt's socket is
   * closed then (the call has no other candidate, so it ends right after).
   */
  #sharedReason: unknown;

  /**
   * @param signal the caller's signal, if any
   * @param closeSignal the router's close signal
   * @param deadlineMs the call's total deadline in ms (0 or undefined: none)
   */
  constructor(
    controller: AbortController,
    signal: AbortSignal | undefined,
    closeSignal: AbortSignal,
    clock: Clock,
    deadlineMs: number | undefined,
  ) {
    this.controller = controller;
    this.#signal = signal;
    this.#closeSignal = closeSignal;
    this.#clock = clock;
    signal?.addEventListener('abort', this, { once: true });
    closeSignal.addEventListener('abort', this, { once: true });
    // The consumer's return() aborts the controller itself: a barge-in, not a failure (the call
    // settles as for a break; the loop tells it apart).
    if (signal?.aborted || closeSignal.aborted) controller.abort();
    if (deadlineMs) {
      this.#budgetTimer = clock.setTimeout(
        () => controller.abort(new TimeoutError('total', deadlineMs)),
        deadlineMs,
      );
    }
  }

  /** The caller's signal or the router's close signal was aborted (EventListener interface). */
  handleEvent(): void {
    this.controller.abort();
  }

  /** The call's signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the call itself was aborted. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** The call's only attempt (on the call's signal) was stopped for `reason`: the first reason counts. */
  stopShared(reason: unknown): void {
    this.#sharedReason ??= reason;
  }

  /**
   * The error to throw once the call itself was aborted: the total deadline's TimeoutError
   * (with `partialOutput` once the call was `committed`), else AbortError.
   */
  abortError(committed: boolean): VoxrouteError {
    const reason: unknown = this.controller.signal.reason;
    if (TimeoutError.isInstance(reason)) {
      return committed ? new TimeoutError('total', reason.timeoutMs, { partialOutput: true }) : reason;
    }
    return new AbortError(this.#closeSignal.aborted ? 'The router was closed' : 'The call was aborted', {
      cause: this.#signal?.reason,
    });
  }

  /** The call ended: its deadline and its listeners on the outer signals go. */
  dispose(): void {
    if (this.#budgetTimer !== undefined) this.#clock.clearTimeout(this.#budgetTimer);
    this.#signal?.removeEventListener('abort', this);
    this.#closeSignal.removeEventListener('abort', this);
  }

  /** The call's only attempt was stopped: abort the call's signal now, with the reason it was stopped for. */
  closeShared(): void {
    if (this.#sharedReason !== undefined && !this.controller.signal.aborted)
      this.controller.abort(this.#sharedReason);
  }
}
