import { AbortError } from '../errors/abort-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import { nextOf, type Takeable, takeableOf } from '../internal/takeable.js';
import type { CandidateStart } from './capability.js';

/**
 * `made`, whose attempts start only once `loading` (the adapter's code still loading, see
 * `ProviderAdapter.ready`) has ended. The attempt's clock starts then, through
 * `RouteCandidate.startsClock`: time to first chunk, the first-chunk deadline, the hedge
 * delay and the latency sample leave the load out, so a provider is not charged for the time
 * its SDK takes to load (the adapter's own deadlines start with the attempt, after the load
 * too). When `made` has its own clock start (streamed text, or input that must end first), the
 * clock starts at whichever comes last. An attempt aborted during the load ends with
 * AbortError without starting, and records no latency sample.
 */
export function startAfterLoad<T>(loading: Promise<void>, made: CandidateStart<T>): CandidateStart<T> {
  const { start, startsClock, inputEnded, ...rest } = made;
  return {
    ...rest,
    startsClock: true,
    start: (attempt, ready) => ({
      [Symbol.asyncIterator]: () =>
        new AfterLoad<T>(loaded(loading, attempt.signal), () => {
          if (startsClock) return start(attempt, ready);
          const startClock = () => ready?.();
          // A provider that answers only after the whole input: its clock starts when the input ends.
          if (inputEnded) inputEnded().then(startClock, startClock);
          else startClock();
          return start(attempt);
        }),
    }),
  };
}

/**
 * The attempt's items once `loading` has resolved: until then nothing (`take()` is undefined,
 * the reader is woken at the load's end); then the items of `begin()`'s iterator, handed out
 * by plain calls through to it when it is {@link Takeable} (the attempt sees the same iterator
 * it would have seen without a load, so reading it does not change: nothing is pulled ahead).
 * A failed load, or `begin()` throwing, is the attempt's failure; `return()` during the load
 * means `begin()` is never called.
 */
class AfterLoad<T> implements Takeable<T> {
  #inner: Takeable<T> | undefined;
  #failure: { error: unknown } | undefined;
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(loading: Promise<void>, begin: () => AsyncIterable<T>) {
    loading.then(
      () => {
        if (this.#ended) return;
        try {
          this.#inner = takeableOf(begin()[Symbol.asyncIterator]());
        } catch (error) {
          this.#failure = { error };
        }
        this.#wakeReader();
      },
      (error: unknown) => {
        this.#failure = { error };
        this.#wakeReader();
      },
    );
  }

  take(): IteratorResult<T> | undefined {
    const inner = this.#inner;
    if (inner !== undefined) return inner.take();
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      this.#ended = true;
      throw failure.error;
    }
    return this.#ended ? { value: undefined, done: true } : undefined;
  }

  onReadable(wake: () => void): void {
    const inner = this.#inner;
    if (inner !== undefined) inner.onReadable(wake);
    else this.#wake = wake;
  }

  next(): Promise<IteratorResult<T>> {
    return nextOf(this);
  }

  return(value?: unknown): Promise<IteratorResult<T>> {
    this.#ended = true;
    const inner = this.#inner;
    return inner?.return ? inner.return(value) : Promise.resolve({ value: undefined, done: true });
  }

  #wakeReader(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    wake();
  }
}

/** Resolves when `loading` has ended; rejects with AbortError when `signal` aborts first. */
function loaded(loading: Promise<void>, signal: AbortSource): Promise<void> {
  const abortError = () => new AbortError('The attempt was aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    void loading.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
