/**
 * `iterator` (a generator's own, typically) with `onStoppedBeforeStart` called when the caller
 * ends it with `return()` or `throw()` before its first `next()`. A generator that never started
 * skips its body, `finally` included, so whatever that `finally` settles (a stream's `result`)
 * would otherwise wait forever. Called once at most; after it, or once `next()` was called, the
 * calls go to `iterator` unchanged.
 */
export function stoppedBeforeStart<T>(
  iterator: AsyncIterator<T, void, undefined>,
  onStoppedBeforeStart: () => void,
): AsyncIterator<T, void, undefined> {
  return new StartWatch(iterator, onStoppedBeforeStart);
}

class StartWatch<T> implements AsyncIterator<T, void, undefined> {
  readonly #iterator: AsyncIterator<T, void, undefined>;
  #onStoppedBeforeStart: (() => void) | undefined;

  constructor(iterator: AsyncIterator<T, void, undefined>, onStoppedBeforeStart: () => void) {
    this.#iterator = iterator;
    this.#onStoppedBeforeStart = onStoppedBeforeStart;
  }

  next(): Promise<IteratorResult<T, void>> {
    this.#onStoppedBeforeStart = undefined;
    return this.#iterator.next();
  }

  return(): Promise<IteratorResult<T, void>> {
    this.#stoppedFirst();
    return this.#iterator.return?.() ?? Promise.resolve({ done: true, value: undefined });
  }

  throw(error: unknown): Promise<IteratorResult<T, void>> {
    this.#stoppedFirst();
    return this.#iterator.throw?.(error) ?? Promise.reject(error);
  }

  #stoppedFirst(): void {
    const call = this.#onStoppedBeforeStart;
    this.#onStoppedBeforeStart = undefined;
    call?.();
  }
}
