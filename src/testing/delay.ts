import { argTypeError } from '../internal/arg-checks.js';

/**
 * Waits `ms` milliseconds, or less if `signal` aborts first (then it may resolve or reject;
 * the kit checks `signal.aborted` after every wait). The mocks take one so tests can drive
 * time themselves instead of sleeping; see {@link createManualDelay}.
 *
 * @example
 * ```ts
 * const asked: number[] = [];
 * const instant: Delay = async (ms) => void asked.push(ms); // no waiting, just a log
 * ```
 */
export type Delay = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * The default {@link Delay}: a real `setTimeout` of `ms` ms, cut short (resolved) when
 * `signal` aborts (0 ms or less: the next turn of the timers, as `setTimeout`). Rejects with a
 * TypeError naming the argument when `signal` is not an AbortSignal or `ms` not a number, a
 * RangeError when `ms` is NaN.
 *
 * @example
 * ```ts
 * await realDelay(5, AbortSignal.timeout(1000));
 * ```
 */
export const realDelay: Delay = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function')
      throw argTypeError('realDelay(ms, signal): signal', 'an AbortSignal', signal);
    if (typeof ms !== 'number') throw argTypeError('realDelay(ms, signal): ms', 'a number of ms', ms);
    if (Number.isNaN(ms)) throw new RangeError('realDelay(ms, signal): ms must be a number of ms, got NaN');
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * A {@link Delay} whose waits end only when a test releases them; made by {@link createManualDelay}.
 *
 * @example
 * ```ts
 * const time: ManualDelay = createManualDelay();
 * expect(await time.release()).toBe(300); // the mock asked to wait 300 ms; that wait is over now
 * ```
 */
export interface ManualDelay {
  /** Pass this as the mock's `delay` option. */
  readonly delay: Delay;
  /** Every wait asked for so far, in ms, in the order asked (released or not). */
  readonly requested: readonly number[];
  /** How many waits are in progress now (asked, not yet released or aborted). */
  readonly pending: number;
  /**
   * Waits until at least one wait is in progress, ends the oldest one and returns its length
   * in ms. Never sleeps: it resolves as soon as the mock asks for a wait.
   */
  release(): Promise<number>;
  /**
   * Waits until at least one wait is in progress and returns the oldest one's length in ms,
   * without ending it (to act while the mock is held, e.g. abort the client).
   */
  whenWaiting(): Promise<number>;
}

/**
 * A manually driven {@link Delay} for tests: nothing waits on real time; each wait the mock
 * asks for (first-chunk delay, chunk gap, headers delay) stays open until `release()`.
 * A wait whose signal aborts ends by itself.
 *
 * @example
 * ```ts
 * const time = createManualDelay();
 * const mock = createOpenAiCompatibleMock({ delay: time.delay, script: { firstChunkDelayMs: 300 } });
 * const reading = fetch(url, init).then((r) => r.body!.getReader().read());
 * expect(await time.release()).toBe(300); // the first chunk is held until here
 * await reading;
 * ```
 */
export function createManualDelay(): ManualDelay {
  const requested: number[] = [];
  const waiting: Array<{ ms: number; resolve: () => void }> = [];
  const releasers: Array<() => void> = [];
  const watchers: Array<() => void> = [];
  const releaseOldest = (): number => {
    const entry = waiting.shift()!;
    entry.resolve();
    return entry.ms;
  };
  const delay: Delay = (ms, signal) =>
    new Promise<void>((resolve) => {
      requested.push(ms);
      if (signal.aborted) return resolve();
      const entry = {
        ms,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = waiting.indexOf(entry);
        if (index >= 0) waiting.splice(index, 1);
        entry.resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiting.push(entry);
      for (const watcher of watchers.splice(0)) watcher();
      releasers.shift()?.();
    });
  return {
    delay,
    requested,
    get pending() {
      return waiting.length;
    },
    release() {
      if (waiting.length > 0) return Promise.resolve(releaseOldest());
      return new Promise<number>((resolve) => releasers.push(() => resolve(releaseOldest())));
    },
    whenWaiting() {
      if (waiting.length > 0) return Promise.resolve(waiting[0]!.ms);
      return new Promise<number>((resolve) => watchers.push(() => resolve(waiting[0]!.ms)));
    },
  };
}
