import { AbortLink, type AbortSource } from '../internal/abort-link.js';
import { isTakeable, nextOf, type Takeable } from '../internal/takeable.js';
import { canFallBack } from './classify.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * Per-item work done by the pump itself, as a plain call per item rather than a stage of its
 * own (one promise and one generator step fewer per chunk). One instance per request started.
 */
export interface PumpStep<S, T> {
  /** Takes one item of the request; `emit` gets each output. A promise only when it must wait. */
  push(item: S, emit: (out: T) => void): void | Promise<void>;
  /** The request ended: emits what is still held (a promise when it must wait); may throw or reject (the request then failed). */
  end(emit: (out: T) => void): void | Promise<void>;
  /** Releases what the step holds, however the request ended. */
  close(): void;
}

/**
 * The audio of one sentence request, pumped into a buffer as it arrives so the next sentence
 * can be requested (and buffered) while this one is still playing. Chunks come out in arrival
 * order, exactly as produced; never reordered, never dropped.
 *
 * A request that fails before the reader took any of its chunks (before its first chunk, or
 * while it was buffered ahead of the sentence that plays) is started once more (`retries`,
 * default 1) when the failure allows it (a reset, a 5xx: {@link canFallBack}) and the request
 * was not aborted: the chunks it buffered are dropped unheard, so the retry's audio is the
 * whole sentence once, with no part of it heard twice. The transport discarded the failed
 * connection, so the retry goes out on another one.
 */
export class SentenceQueue<S, T = S> {
  readonly #items: T[] = [];
  #done = false;
  #error: { error: unknown } | undefined;
  /** Wakes the reader waiting for a chunk, the end or the error (see {@link onReadable}). */
  #wake: (() => void) | undefined;
  /** The reader had the end or the error: every later next() is done. */
  #drained = false;
  /** The reader took a chunk: from then on a failure is not retried (the caller heard part of it). */
  #taken = false;
  #firstChunk!: () => void;
  /** Resolves on the first chunk, or when the request ended or failed without one. */
  readonly firstChunk = new Promise<void>((resolve) => {
    this.#firstChunk = resolve;
  });
  /** The request's own abort scope; absent when it runs on its attempt's signal (`retries` 0). */
  readonly #abort: AbortLink | undefined;
  readonly #signal: AbortSource;
  #onParentAbort: (() => void) | undefined;
  /** How many times the request was started again after failing before its first chunk. */
  retried = 0;

  /**
   * `open(signal)` starts the request (again, on a retry); `parent`: the attempt's signal.
   * `retries`: how many times a failure before the first chunk is retried. A request with no
   * retry (an attempt's first sentence) runs on `parent` itself: it can only stop with its
   * attempt, so it needs no abort scope of its own and {@link cancel} leaves it to the attempt.
   * `step()`, when given, makes the per-item work for each request started (see
   * {@link PumpStep}); without it the request's items are the queue's chunks.
   */
  constructor(
    open: (signal: AbortSource) => AsyncIterable<S>,
    parent: AbortSource,
    retries: number,
    step?: () => PumpStep<S, T>,
  ) {
    if (retries === 0) {
      this.#abort = undefined;
      this.#signal = parent;
    } else {
      // An AbortLink, not an AbortController: no AbortSignal per later sentence (abort-link.ts).
      const abort = new AbortLink();
      this.#abort = abort;
      this.#signal = abort;
      if (parent.aborted) abort.abort(parent.reason);
      else {
        this.#onParentAbort = () => abort.abort(parent.reason);
        parent.addEventListener('abort', this.#onParentAbort, { once: true });
      }
    }
    void this.#pump(open, parent, retries, step);
  }

  async #pump(
    open: (signal: AbortSource) => AsyncIterable<S>,
    parent: AbortSource,
    retries: number,
    makeStep: (() => PumpStep<S, T>) | undefined,
  ) {
    let got = false;
    const emit = (item: T) => {
      if (!got) {
        got = true;
        this.#firstChunk();
      }
      this.#items.push(item);
      this.#notify();
    };
    for (;;) {
      const step = makeStep?.();
      try {
        await readAll(open(this.#signal)[Symbol.asyncIterator](), step, emit);
        this.#done = true;
        break;
      } catch (error) {
        if (!this.#taken && this.retried < retries && !this.#signal.aborted && canFallBack(error)) {
          this.retried++;
          // Buffered ahead and never played: dropped, the retry speaks the whole sentence.
          this.#items.length = 0;
          continue;
        }
        this.#error = { error };
        break;
      } finally {
        step?.close();
      }
    }
    if (this.#onParentAbort) parent.removeEventListener('abort', this.#onParentAbort);
    this.#firstChunk();
    this.#notify();
  }

  /**
   * The next chunk when one is here, or the end; throws the request's error after the chunks
   * that came before it; undefined while the request may still produce (then {@link onReadable}).
   * One reader: the queue's side of {@link Takeable}.
   */
  take(): IteratorResult<T> | undefined {
    if (this.#drained) return DONE;
    if (this.#items.length > 0) {
      this.#taken = true;
      return { value: this.#items.shift() as T, done: false };
    }
    if (this.#error) {
      this.#drained = true;
      throw this.#error.error;
    }
    if (this.#done) {
      this.#drained = true;
      return DONE;
    }
    return undefined;
  }

  /** The reader wants no more: every later read is done (the request itself goes on; see {@link cancel}). */
  stopReading(): void {
    this.#drained = true;
  }

  /** `wake()` once, when {@link take} may have something: a chunk, the end or the error. */
  onReadable(wake: () => void): void {
    this.#wake = wake;
  }

  /**
   * The chunks in order; throws the request's error after the chunks that came before it.
   * One reader. A hand-written iterator rather than an async generator: a chunk that arrives
   * while the reader waits is handed to it directly, one promise per chunk and no generator
   * step (this runs for every chunk of every tts() call).
   */
  drain(): AsyncIterableIterator<T> & Takeable<T> {
    const iterator: AsyncIterableIterator<T> & Takeable<T> = {
      next: () => nextOf(this),
      take: () => this.take(),
      onReadable: (wake) => this.onReadable(wake),
      return: () => {
        this.stopReading();
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

  /** A chunk arrived, or the request ended or failed: a waiting reader learns it now. */
  #notify(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    wake();
  }
}

/**
 * Reads a request's items to the end, each through `step` when given, into `emit`. A source
 * that offers {@link Takeable} is read by plain calls as its items arrive (no promise per
 * item); any other with `for await`. Resolves at the end; rejects with the source's or the
 * step's failure (the source is then return()ed, as `for await` does, when the step failed).
 */
export function readAll<S, T>(
  source: AsyncIterator<S>,
  step: PumpStep<S, T> | undefined,
  emit: (item: T) => void,
): Promise<void> {
  if (!isTakeable(source)) return readEach(source, step, emit);
  return new Promise<void>((resolve, reject) => {
    const run = (): void => {
      for (;;) {
        let r: IteratorResult<S> | undefined;
        try {
          r = source.take();
        } catch (error) {
          reject(error);
          return;
        }
        if (r === undefined) {
          source.onReadable(run);
          return;
        }
        if (r.done) {
          try {
            const ending = step?.end(emit);
            if (ending) ending.then(resolve, reject);
            else resolve();
          } catch (error) {
            reject(error);
          }
          return;
        }
        try {
          const waiting = step ? step.push(r.value, emit) : emit(r.value as unknown as T);
          if (waiting) {
            waiting.then(run, stepFailed);
            return;
          }
        } catch (error) {
          stepFailed(error);
          return;
        }
      }
    };
    const stepFailed = (error: unknown): void => {
      source.return?.()?.catch(() => {});
      reject(error);
    };
    run();
  });
}

async function readEach<S, T>(
  source: AsyncIterator<S>,
  step: PumpStep<S, T> | undefined,
  emit: (item: T) => void,
): Promise<void> {
  const items: AsyncIterable<S> = { [Symbol.asyncIterator]: () => source };
  if (step) {
    for await (const item of items) {
      const waiting = step.push(item, emit);
      if (waiting) await waiting;
    }
    await step.end(emit);
  } else for await (const item of items) emit(item as unknown as T);
}
