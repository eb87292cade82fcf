import { AbortError } from '../errors/abort-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import { AbortLink } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';

/**
 * The calls in progress of each router, by the router's close signal: the signal gets one
 * listener that aborts them all, rather than one listener per call (an EventTarget checks its
 * whole list on every add and remove, so per-call listeners cost O(calls in progress) each).
 */
const liveCalls = new WeakMap<AbortSignal, Set<CallScope>>();

function closeAll(calls: Set<CallScope>): void {
  for (const call of [...calls]) call.abort();
}

/** What {@link CallScope.onAbort} tells of the call's abort. */
export interface AbortListener {
  callAborted(): void;
}

/**
 * The abort scope of one routed call: one AbortLink, aborted by the caller's signal, by
 * `router.close()`, by the call's total deadline (TimeoutError phase `total`) and by the
 * consumer's `return()` (a barge-in). Every abort of the call goes through {@link abort}, so
 * {@link aborted} settles without a listener of its own. Built with the call's iterator;
 * {@link open} (when the call starts) listens on the caller's signal as an EventListener object
 * (no closure per call) and joins the router's calls in progress, until {@link dispose}.
 */
export class CallScope {
  /** The call's abort link: every attempt's follows it. */
  readonly link = new AbortLink();
  /** True once the call was aborted (as `signal.aborted`, read without the signal's getters: per item). */
  isAborted = false;
  #signal: AbortSignal | undefined;
  #closeSignal: AbortSignal | undefined;
  #clock: Clock | undefined;
  #budgetTimer: unknown;
  #aborted: Promise<'aborted'> | undefined;
  #resolveAborted: ((value: 'aborted') => void) | undefined;
  /** The call's iterator, told of the abort (see {@link onAbort}). */
  #onAbort: AbortListener | undefined;
  /**
   * Why the call's only attempt, which runs on the call's signal, was stopped: the signal is
   * aborted with it when the call ends (see {@link closeShared}), so that the attempt's socket is
   * closed then (the call has no other candidate, so it ends right after).
   */
  #sharedReason: unknown;

  /**
   * The call starts: it follows `signal` (the caller's, if any) and `closeSignal` (the
   * router's), and gets a total deadline of `deadlineMs` (0 or undefined: none), set by the
   * option `setting` (the request's `deadlineMs`, default the route's `totalTimeoutMs`), which
   * its TimeoutError names.
   */
  open(
    signal: AbortSignal | undefined,
    closeSignal: AbortSignal,
    clock: Clock,
    deadlineMs: number | undefined,
    setting: 'deadlineMs' | 'totalTimeoutMs' = 'totalTimeoutMs',
  ): void {
    this.#signal = signal;
    this.#closeSignal = closeSignal;
    this.#clock = clock;
    signal?.addEventListener('abort', this, { once: true });
    let calls = liveCalls.get(closeSignal);
    if (!calls) {
      const created = new Set<CallScope>();
      calls = created;
      liveCalls.set(closeSignal, created);
      closeSignal.addEventListener('abort', () => closeAll(created), { once: true });
    }
    calls.add(this);
    // The consumer's return() aborts the call itself: a barge-in, not a failure (the call
    // settles as for a break; the loop tells it apart).
    if (signal?.aborted || closeSignal.aborted) this.abort();
    if (deadlineMs) {
      this.#budgetTimer = clock.setTimeout(
        () => this.abort(new TimeoutError('total', deadlineMs, { setting })),
        deadlineMs,
      );
    }
  }

  /** The caller's signal was aborted (EventListener interface). */
  handleEvent(): void {
    this.abort();
  }

  /**
   * `listener.callAborted()` is called once the call is aborted, right after its signal (one
   * listener: the call's iterator, whose pending read of a winner's items it stops; no listener
   * of the signal's own, which an EventTarget would also have to add and remove; an object
   * rather than a function, so that the iterator needs no closure of its own for it).
   */
  onAbort(listener: AbortListener): void {
    this.#onAbort = listener;
  }

  /** Aborts the call (no `reason`: the default AbortError); settles {@link aborted} first. */
  abort(reason?: unknown): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.#resolveAborted?.('aborted');
    this.link.abort(reason);
    this.#onAbort?.callAborted();
  }

  /** Settles (with `'aborted'`) once the call is aborted. */
  get aborted(): Promise<'aborted'> {
    if (!this.#aborted) {
      this.#aborted = this.link.aborted
        ? Promise.resolve('aborted')
        : new Promise<'aborted'>((resolve) => {
            this.#resolveAborted = resolve;
          });
    }
    return this.#aborted;
  }

  /** The call's abort link (see AbortLink). */
  get signal(): AbortLink {
    return this.link;
  }

  /** The call's only attempt (on the call's signal) was stopped for `reason`: the first reason counts. */
  stopShared(reason: unknown): void {
    this.#sharedReason ??= reason;
  }

  /**
   * The error to throw once the call itself was aborted: the total deadline's TimeoutError,
   * else AbortError, either with `partialOutput` once the call was `committed` (had yielded output).
   */
  abortError(committed: boolean): VoxrouteError {
    const reason: unknown = this.link.reason;
    if (TimeoutError.isInstance(reason)) {
      return committed
        ? new TimeoutError('total', reason.timeoutMs, {
            partialOutput: true,
            ...(reason.setting !== undefined ? { setting: reason.setting } : {}),
          })
        : reason;
    }
    return new AbortError(this.#closeSignal?.aborted ? 'The router was closed' : 'The call was aborted', {
      cause: this.#signal?.reason,
      ...(committed ? { partialOutput: true } : {}),
    });
  }

  /** The call ended: its deadline and its listener go, and it leaves the router's calls in progress. */
  dispose(): void {
    if (this.#budgetTimer !== undefined) this.#clock?.clearTimeout(this.#budgetTimer);
    this.#signal?.removeEventListener('abort', this);
    if (this.#closeSignal) liveCalls.get(this.#closeSignal)?.delete(this);
  }

  /** The call's only attempt was stopped: abort the call's signal now, with the reason it was stopped for. */
  closeShared(): void {
    if (this.#sharedReason !== undefined) this.abort(this.#sharedReason);
  }
}
