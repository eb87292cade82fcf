import { canFallBack } from './classify.js';

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
  #wake: (() => void) | undefined;
  #firstChunk!: () => void;
  /** Resolves on the first chunk, or when the request ended or failed without one. */
  readonly firstChunk = new Promise<void>((resolve) => {
    this.#firstChunk = resolve;
  });
  readonly #abort = new AbortController();
  #onParentAbort: (() => void) | undefined;
  /** How many times the request was started again after failing before its first chunk. */
  retried = 0;

  /**
   * `open(signal)` starts the request (again, on a retry); `parent`: the attempt's signal.
   * `retries`: how many times a failure before the first chunk is retried.
   */
  constructor(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal, retries: number) {
    if (parent.aborted) this.#abort.abort(parent.reason);
    else {
      this.#onParentAbort = () => this.#abort.abort(parent.reason);
      parent.addEventListener('abort', this.#onParentAbort, { once: true });
    }
    void this.#pump(open, parent, retries);
  }

  async #pump(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal, retries: number) {
    let got = false;
    for (;;) {
      try {
        for await (const item of open(this.#abort.signal)) {
          if (!got) {
            got = true;
            this.#firstChunk();
          }
          this.#items.push(item);
          this.#notify();
        }
        this.#done = true;
        break;
      } catch (error) {
        if (!got && this.retried < retries && !this.#abort.signal.aborted && canFallBack(error)) {
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

  /** The chunks in order; throws the request's error after the chunks that came before it. */
  async *drain(): AsyncGenerator<T, void, undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#error) throw this.#error.error;
      if (this.#done) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Stops the request (look-ahead no longer wanted). */
  cancel(reason?: unknown): void {
    this.#abort.abort(reason);
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
