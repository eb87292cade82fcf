import { AbortError } from '../errors/abort-error.js';
import { onceStream, ROUTED_STREAM, type Settle as SettleOf } from '../internal/once-stream.js';
import { rejectOnAbort } from '../internal/unstarted-abort.js';
import type { RoutedStream, RouteResult } from '../types/route-result.js';
import { drive } from './attempt-loop.js';
import { type AbortListener, CallScope } from './call-scope.js';
import type { ItemHandoff } from './item-handoff.js';
import type { RouteRun } from './route-run.js';

type Settle = SettleOf<RouteResult>;
type Result<T> = IteratorResult<T, void>;

const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

/**
 * Wraps a routed call as a {@link RoutedStream}. Nothing starts until the caller iterates.
 * The stream can be iterated once (a second `for await` throws RequestError, field `'stream'`);
 * `result` never causes an unhandled rejection by itself.
 * `result` awaited before the stream is iterated rejects with AbortError when the call's
 * signal aborts or the router closes (nothing else can end a call that never started).
 */
export function routedStream<T>(run: RouteRun<T>): RoutedStream<T> {
  return onceStream(
    ROUTED_STREAM,
    (settle: Settle) => new CallIterator(run, settle),
    (settle) => rejectOnAbort(settle, run, 'The call was aborted'),
  );
}

/**
 * The call's iterator. The attempt loop (`drive`) chooses the attempt, then hands its first
 * item and its iterator over ({@link ItemHandoff}); this iterator delivers the first item and
 * reads the other items itself: an item at hand is taken by plain calls down the attempt's stages
 * (one promise per item: the caller's own), else it waits for the attempt to wake it. Each wait
 * is raced with the call's abort: a provider that ignores its signal cannot hold the call, and
 * after the abort nothing more is delivered. The loop gets the end of the items, their failure
 * or the abort back where it handed them over.
 *
 * `return()` stops the call at once, even while a `next()` is pending (how frameworks race an
 * iterator against barge-in): every attempt is aborted (its socket closed), the pending
 * `next()` resolves done, and no item is delivered after `return()`. A `next()` made while
 * another is pending waits for it. Before any `next()`, `return()` (or `throw()`) ends the call
 * without contacting a provider, and `result` resolves with no attempt.
 *
 * Per call it builds few functions (issue 15, P1: allocation drives the tail): the steps of
 * drive and the wake-up of a wait are bound once per call, the rarer paths build theirs when
 * taken.
 */
class CallIterator<T> implements AsyncIterator<T, void, undefined>, AbortListener {
  // The call's one abort scope, shared with drive(): return() and throw() abort it directly.
  readonly #scope = new CallScope();
  readonly #generator: AsyncGenerator<ItemHandoff<T>, void, undefined>;
  readonly #run: RouteRun<T>;
  readonly #result: Settle;
  /** Set by the first next(): drive runs from then on, and settles `result` however it ends. */
  #started = false;
  #stopped = false;
  /**
   * The consumer's return() (or throw()) came before any other abort of the call: the call ends
   * as a `break`. After the caller's signal, router.close() or the total deadline it ends with
   * their error, as it would at the consumer's next step (see {@link #stop}).
   */
  #stoppedFirst = false;
  /** The winner's items, once drive handed them over. */
  #items: ItemHandoff<T> | undefined;
  /** The pending `next()`: a step of drive, or a wait for the winner's next item. */
  #busy: Promise<Result<T>> | undefined;
  /** The wait for the winner's next item, while it waits. */
  #resolve: ((r: Result<T> | Promise<Result<T>>) => void) | undefined;
  /** {@link #onPulled} and {@link #onPullFailed} bound, for a winner without `sync` (see next()). */
  #pulled: ((r: Result<T>) => void) | undefined;
  #pullFailed: ((error: unknown) => void) | undefined;
  /**
   * The step of drive that ended the call when it was aborted while the caller held an item (no
   * `next()` pending): what the caller's next `next()` gets (AbortError). See {@link callAborted}.
   */
  #abortStep: Promise<Result<T>> | undefined;

  constructor(run: RouteRun<T>, settle: Settle) {
    this.#run = run;
    this.#result = settle;
    this.#generator = drive(run, settle, this.#scope, () => this.#stoppedFirst);
    this.#scope.onAbort(this);
  }

  next(): Promise<Result<T>> {
    if (this.#stopped) return Promise.resolve(DONE);
    const aborted = this.#abortStep;
    if (aborted !== undefined) {
      this.#abortStep = undefined;
      return aborted;
    }
    this.#started = true;
    const busy = this.#busy;
    if (busy) {
      const again = () => this.next();
      return busy.then(again, again);
    }
    const items = this.#items;
    if (items === undefined) return this.#drive(this.#generator.next());
    if (this.#scope.isAborted) return this.#abortItems();
    const sync = items.sync;
    if (sync) {
      let r: Result<T> | undefined;
      try {
        r = sync.take();
      } catch (error) {
        return this.#failItems(error);
      }
      if (r !== undefined) {
        if (r.done) return this.#endItems();
        items.deliver?.(r.value);
        return Promise.resolve(r);
      }
    }
    const wait = new Promise<Result<T>>((resolve) => {
      this.#resolve = resolve;
    });
    this.#busy = wait;
    if (sync) sync.onReadable(this.#onReadable);
    else {
      // Bound once per call, on the first pull (a call that only takes the sync path builds none).
      this.#pulled ??= (r) => this.#onPulled(r);
      this.#pullFailed ??= (error) => this.#onPullFailed(error);
      items.iterator.next().then(this.#pulled, this.#pullFailed);
    }
    return wait;
  }

  async return(): Promise<Result<T>> {
    this.#stop();
    // Behind a pending next(), which the abort settles at once.
    await this.#busy?.catch(() => {});
    await this.#generator.return().catch(() => {});
    return DONE;
  }

  async throw(error: unknown): Promise<Result<T>> {
    this.#stop();
    await this.#busy?.catch(() => {});
    await this.#generator.return().catch(() => {});
    throw error;
  }

  /**
   * The consumer stopped (return(), throw()). An abort that came before it (the caller's signal,
   * router.close(), the total deadline: the scope is aborted already) has ended the call: the
   * `break` that follows it in the same step (`controller.abort(reason); break;`) does not turn
   * it into a `break`, whose `result` resolves. The call then settles with the abort's error,
   * as it would at the consumer's next step and as `result` read before the abort does.
   */
  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#stoppedFirst = !this.#scope.isAborted;
    this.#scope.abort();
    if (!this.#started) this.#stoppedBeforeStart();
  }

  /**
   * `return()` or `throw()` before any `next()`: drive never runs (a generator that never
   * started skips its `finally`), so the call ends here as a `break` before any attempt does in
   * drive: no provider contacted, the caller's input released, `result` resolved with no attempt
   * (`provider: ''`, as for empty input); rejected with AbortError when the caller's signal had
   * aborted or the router had closed by then, as `result` read before then is (rejectOnAbort).
   */
  #stoppedBeforeStart(): void {
    this.#run.release?.();
    const { signal, closeSignal } = this.#run;
    if (closeSignal.aborted) this.#result.reject(new AbortError('The router was closed'));
    else if (signal?.aborted)
      this.#result.reject(new AbortError('The call was aborted', { cause: signal.reason }));
    else this.#result.resolve({ provider: '', attempts: [], timeToFirstChunkMs: 0, durationMs: 0 });
  }

  /** The winner woke the wait: its next item, end or failure. */
  readonly #onReadable = (): void => {
    const items = this.#items;
    const sync = items?.sync;
    if (this.#resolve === undefined || sync === undefined) return; // the wait ended (aborted)
    if (this.#scope.isAborted) {
      // Woken inside the abort (the attempt dropped its queue): end the wait out of that call
      // stack, as an abort does, so drive's clean-up and the events it fires do not run
      // inside the caller's abort().
      this.callAborted();
      return;
    }
    let r: Result<T> | undefined;
    try {
      r = sync.take();
    } catch (error) {
      this.#settle(() => this.#failItems(error));
      return;
    }
    if (r === undefined) sync.onReadable(this.#onReadable);
    else this.#onPulled(r);
  };

  #onPulled(r: Result<T>): void {
    if (this.#resolve === undefined) return; // the wait ended (aborted)
    if (r.done) this.#settle(() => this.#endItems());
    else {
      this.#items!.deliver?.(r.value);
      this.#settle(r);
    }
  }

  #onPullFailed(error: unknown): void {
    if (this.#resolve === undefined) return;
    this.#settle(() => this.#failItems(error));
  }

  /**
   * The call was aborted: a wait for the winner's items ends now (drive learns it next). When
   * the caller holds an item instead (no `next()` pending), drive learns it now too, so the call
   * ends at the abort (its sockets closed, `result` settled), not at the caller's next step,
   * which may never come (a loop that stopped asking); that step then gets the AbortError.
   */
  callAborted(): void {
    const resolve = this.#resolve;
    if (resolve === undefined) {
      if (this.#items !== undefined && this.#busy === undefined && !this.#stopped) {
        // Out of the abort's own call stack, as below.
        const aborted = Promise.resolve().then(() => this.#abortItems());
        aborted.catch(() => {});
        this.#abortStep = aborted;
      }
      return;
    }
    this.#resolve = undefined;
    // Out of the abort's own call stack (a signal's listener, a timer, return()).
    const aborted = Promise.resolve().then(() => this.#abortItems());
    this.#busy = aborted;
    resolve(aborted);
  }

  /** Ends the wait with `r`, or with what `then()` gives (a step of drive). */
  #settle(r: Result<T> | (() => Promise<Result<T>>)): void {
    const resolve = this.#resolve!;
    this.#resolve = undefined;
    this.#busy = undefined;
    resolve(typeof r === 'function' ? r() : r);
  }

  #endItems(): Promise<Result<T>> {
    this.#items = undefined;
    return this.#drive(this.#generator.next());
  }

  #failItems(error: unknown): Promise<Result<T>> {
    this.#items = undefined;
    return this.#drive(this.#generator.throw(error));
  }

  #abortItems(): Promise<Result<T>> {
    this.#items = undefined;
    return this.#drive(this.#generator.throw(new AbortError('The call was aborted')));
  }

  /** A step of drive: an item, the end, or the winner's items handed over (then read on). */
  #drive(step: Promise<IteratorResult<ItemHandoff<T>, void>>): Promise<Result<T>> {
    const next = step.then(this.#onDriven, this.#onDriveFailed);
    this.#busy = next;
    return next;
  }

  readonly #onDriven = (r: IteratorResult<ItemHandoff<T>, void>): Result<T> => {
    this.#busy = undefined;
    if (this.#stopped) return DONE;
    if (r.done) return DONE;
    const items = r.value;
    this.#items = items;
    items.deliver?.(items.first);
    return { done: false, value: items.first };
  };

  readonly #onDriveFailed = (error: unknown): Result<T> => {
    this.#busy = undefined;
    if (this.#stopped) return DONE;
    throw error;
  };
}
