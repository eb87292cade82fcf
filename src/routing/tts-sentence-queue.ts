import { canFallBack } from './classify.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * The audio of one sentence request, pumped into a buffer as it arrives so the next sentence
 * can be requested (and buffered) while this one is still playing. Chunks come out in arrival
 * order, exactly as produced; never reordered, never dropped.
 *
 * A request that fails before its first chunk is started once more (`retries`, default 1) when
 * the failure allows it (a reset, a 5xx: {@link canFallBack}) and the request was not aborted:
 * the transport discarded the failed connection, so the retry goes out on another one.
 */
export class SentenceQueue<T> {
  readonly #items: T[] = [];
  #done = false;
  #error: { error: unknown } | undefined;
  /** The reader's pending next(), when it waits for a chunk. */
  #reader: { resolve: (r: IteratorResult<T>) => void; reject: (error: unknown) => void } | undefined;
  /** The reader had the end or the error: every later next() is done. */
  #drained = false;
  #firstChunk!: () => void;
  /** Resolves on the first chunk, or when the request ended or failed without one. */
  readonly firstChunk = new Promise<void>((resolve) => {
    this.#firstChunk = resolve;
  });
  /** The request's own abort scope; absent when it runs on its attempt's signal (`retries` 0). */
  readonly #abort: AbortController | undefined;
  readonly #signal: AbortSignal;
  #onParentAbort: (() => void) | undefined;
  /** How many times the request was started again after failing before its first chunk. */
  retried = 0;

  /**
   * `open(signal)` starts the request (again, on a retry); `parent`: the attempt's signal.
   * `retries`: how many times a failure before the first chunk is retried. A request with no
   * retry (an attempt's first sentence) runs on `parent` itself: it can only stop with its
   * attempt, so it needs no abort scope of its own and {@link cancel} leaves it to the attempt.
   */
  constructor(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal, retries: number) {
    if (retries === 0) {
      this.#abort = undefined;
      this.#signal = parent;
    } else {
      const abort = new AbortController();
      this.#abort = abort;
      this.#signal = abort.signal;
      if (parent.aborted) abort.abort(parent.reason);
      else {
        this.#onParentAbort = () => abort.abort(parent.reason);
        parent.addEventListener('abort', this.#onParentAbort, { once: true });
      }
    }
    void this.#pump(open, parent, retries);
  }

  async #pump(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal, retries: number) {
    let got = false;
    for (;;) {
      try {
        for await (const item of open(this.#signal)) {
          if (!got) {
            got = true;
            this.#firstChunk();
          }
          const reader = this.#reader;
          if (reader) {
            this.#reader = undefined;
            reader.resolve({ value: item, done: false });
          } else this.#items.push(item);
        }
        this.#done = true;
        break;
      } catch (error) {
        if (!got && this.retried < retries && !this.#signal.aborted && canFallBack(error)) {
          this.retried++;
          continue;
        }
        this.#error = { error };
        break;
      }
    }
    if (this.#onParentAbort) parent.removeEventListener('abort', this.#onParentAbort);
    this.#firstChunk();
    this.#notify();
  }

  /**
   * The chunks in order; throws the request's error after the chunks that came before it.
   * One reader. A hand-written iterator rather than an async generator: a chunk that arrives
   * while the reader waits is handed to it directly, one promise per chunk and no generator
   * step (this runs for every chunk of every tts() call).
   */
  drain(): AsyncIterableIterator<T> {
    const iterator: AsyncIterableIterator<T> = {
      next: () => {
        if (this.#drained) return Promise.resolve(DONE);
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#error) {
          this.#drained = true;
          return Promise.reject(this.#error.error);
        }
        if (this.#done) {
          this.#drained = true;
          return Promise.resolve(DONE);
        }
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.#reader = { resolve, reject };
        });
      },
      return: () => {
        this.#drained = true;
        return Promise.resolve(DONE);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /**
   * Stops the request (look-ahead no longer wanted). A request on its attempt's signal (no
   * retry: the attempt's first sentence) stops when its attempt is aborted, which is what
   * ends the attempt early.
   */
  cancel(reason?: unknown): void {
    this.#abort?.abort(reason);
  }

  /** The request ended or failed: a waiting reader learns it now. */
  #notify(): void {
    const reader = this.#reader;
    if (!reader) return;
    this.#reader = undefined;
    this.#drained = true;
    if (this.#error) reader.reject(this.#error.error);
    else reader.resolve(DONE);
  }
}
