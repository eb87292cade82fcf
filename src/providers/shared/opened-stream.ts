import { nextOf, type Takeable, takeableOf } from '../../internal/takeable.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * The items of one provider request (audio chunks, chat events) as an async iterator that is
 * also {@link Takeable}: the request goes out (`open()`) at the first read, as an async
 * generator's would, and its answer is then read through the iterator `open()` resolves with:
 * by plain calls when that iterator is takeable (a raw audio body: see `rawBodyAudio`; an SSE
 * body: see `assembledSse`), else one `next()` at a time (`takeableOf`).
 * `open()`'s failure is thrown at the read that waited for it. `return()` closes the answer's
 * iterator (the request's, once it is open). One reader.
 */
export class OpenedStream<T> implements AsyncIterableIterator<T>, Takeable<T> {
  readonly #open: () => Promise<AsyncIterator<T>>;
  #started = false;
  #inner: AsyncIterator<T> | undefined;
  #sync: Takeable<T> | undefined;
  #failure: { error: unknown } | undefined;
  #done = false;
  #wake: (() => void) | undefined;

  constructor(open: () => Promise<AsyncIterator<T>>) {
    this.#open = open;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  take(): IteratorResult<T> | undefined {
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      this.#done = true;
      throw failure.error;
    }
    if (this.#done) return DONE;
    if (!this.#started) {
      this.#start();
      return undefined;
    }
    const sync = this.#sync;
    if (sync === undefined) return undefined;
    let r: IteratorResult<T> | undefined;
    try {
      r = sync.take();
    } catch (error) {
      this.#done = true;
      throw error;
    }
    if (r?.done) this.#done = true;
    return r;
  }

  onReadable(wake: () => void): void {
    if (this.#sync !== undefined && this.#failure === undefined) this.#sync.onReadable(wake);
    else this.#wake = wake;
  }

  next(): Promise<IteratorResult<T>> {
    return nextOf(this);
  }

  return(): Promise<IteratorResult<T>> {
    this.#started = true;
    this.#done = true;
    this.#failure = undefined;
    const inner = this.#inner;
    this.#inner = undefined;
    this.#sync = undefined;
    const closed = inner?.return?.();
    // A read waiting for the request to open ends now (take() gives the end): it would otherwise
    // wait for ever, since open()'s outcome is dropped once returned. A reader waiting on the
    // answer's iterator was handed to it, and that iterator's return() is its to settle.
    this.#wakeReader();
    return closed ? closed.then(() => DONE) : Promise.resolve(DONE);
  }

  #start(): void {
    this.#started = true;
    let opening: Promise<AsyncIterator<T>>;
    try {
      opening = this.#open();
    } catch (error) {
      opening = Promise.reject(error);
    }
    opening.then(
      (inner) => {
        // Returned while the request was on its way: close its answer.
        if (this.#done) {
          void inner.return?.()?.catch(() => {});
          return;
        }
        this.#inner = inner;
        this.#sync = takeableOf(inner);
        this.#wakeReader();
      },
      (error: unknown) => {
        if (this.#done) return;
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
