/**
 * An async iterator whose results can also be taken synchronously, so that a stack of stages
 * (transport body, provider adapter, sentence pump, attempt, the call's iterator) passes an item
 * on as plain calls: only the outermost reader pays a promise per item, and a stage that has
 * nothing yet asks to be woken rather than awaiting the stage below it.
 *
 * Protocol: `take()` gives the next result when it is known now (an item, or the end) and
 * throws the stage's failure when that is known now; `undefined` means nothing yet: call
 * `onReadable(wake)`, and `wake()` is called once when `take()` may have something (an item,
 * the end or a failure; it may still find nothing, then it asks again). One reader; a later
 * `onReadable` replaces an earlier one. `next()` keeps working as for any async iterator.
 */
export interface Takeable<T> extends AsyncIterator<T> {
  take(): IteratorResult<T> | undefined;
  onReadable(wake: () => void): void;
}

/** True when `iterator` offers {@link Takeable}'s synchronous side. */
export function isTakeable<T>(iterator: AsyncIterator<T>): iterator is Takeable<T> {
  return typeof (iterator as Partial<Takeable<T>>).take === 'function';
}

/**
 * `next()` of a {@link Takeable} built on its synchronous side: a result at hand settles at
 * once, else the promise settles when the source wakes with one. For a single reader.
 */
export function nextOf<T>(source: Pick<Takeable<T>, 'take' | 'onReadable'>): Promise<IteratorResult<T>> {
  let first: IteratorResult<T> | undefined;
  try {
    first = source.take();
  } catch (error) {
    return Promise.reject(error);
  }
  if (first !== undefined) return Promise.resolve(first);
  return new Promise<IteratorResult<T>>((resolve, reject) => {
    const wake = (): void => {
      let r: IteratorResult<T> | undefined;
      try {
        r = source.take();
      } catch (error) {
        reject(error);
        return;
      }
      if (r === undefined) source.onReadable(wake);
      else resolve(r);
    };
    source.onReadable(wake);
  });
}

/**
 * `iterator` as a {@link Takeable}: itself when it already is one, else a wrapper that keeps
 * one `next()` of it in flight while the reader waits and gives its result (or failure) to
 * the next `take()`. `return()` passes through. For a single reader.
 */
export function takeableOf<T>(iterator: AsyncIterator<T>): Takeable<T> {
  return isTakeable(iterator) ? iterator : new PulledTakeable(iterator);
}

class PulledTakeable<T> implements Takeable<T> {
  readonly #inner: AsyncIterator<T>;
  #pulling = false;
  #ready: IteratorResult<T> | undefined;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(inner: AsyncIterator<T>) {
    this.#inner = inner;
  }

  take(): IteratorResult<T> | undefined {
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      throw failure.error;
    }
    const r = this.#ready;
    if (r !== undefined) {
      this.#ready = undefined;
      return r;
    }
    if (!this.#pulling) this.#pull();
    return undefined;
  }

  onReadable(wake: () => void): void {
    this.#wake = wake;
  }

  next(): Promise<IteratorResult<T>> {
    return nextOf(this);
  }

  return(value?: unknown): Promise<IteratorResult<T>> {
    const inner = this.#inner;
    return inner.return ? inner.return(value) : Promise.resolve({ value: undefined, done: true });
  }

  #pull(): void {
    this.#pulling = true;
    this.#inner.next().then(
      (r) => {
        this.#pulling = false;
        this.#ready = r;
        this.#wakeReader();
      },
      (error: unknown) => {
        this.#pulling = false;
        this.#failure = { error };
        this.#wakeReader();
      },
    );
  }

  #wakeReader(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    wake();
  }
}
