import { durationMs } from '../audio/format.js';
import type { ProviderAudio } from '../providers/types.js';
import type { AudioChunk } from '../types/audio.js';
import type { SentenceCut, TtsProgress } from './tts-progress.js';
import type { SentenceQueue } from './tts-sentence-queue.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** One sentence of an attempt: its progress record and its request (none: nothing to say). */
export interface SentenceJob {
  state: SentenceCut;
  queue: SentenceQueue<ProviderAudio, AudioChunk> | undefined;
}

/**
 * An attempt's audio, sentence after sentence from `first`: each sentence's queue is read to
 * its end, then the next. Unless `standIn`, sentence i+1 is requested (`jobFor`) when sentence
 * i's first chunk arrives (look-ahead of one). A stand-in speaks one sentence, then ends.
 *
 * A hand-written iterator rather than an async generator: a chunk passes with one promise
 * reaction and no generator step (this runs for every chunk of every tts() call). It behaves
 * as the generator it replaces: a chunk counts as delivered (`progress.cut`) when the next one
 * is asked for; a `next()` or `return()` made while a `next()` is pending waits for it;
 * however it ends (done, failed, returned), the look-ahead requests still running are
 * cancelled, once.
 */
export class SentenceAttempt implements AsyncIterableIterator<AudioChunk> {
  #i: number;
  #job: SentenceJob | undefined;
  /** The current sentence's chunks, while it has more. */
  #it: AsyncIterator<AudioChunk> | undefined;
  /** The chunk handed out last, counted as delivered at the next `next()`. */
  #last: AudioChunk | undefined;
  #ended = false;
  #released = false;
  #busy = false;
  #pending: Promise<IteratorResult<AudioChunk>> | undefined;

  constructor(
    private readonly progress: TtsProgress,
    first: number,
    private readonly jobs: Map<number, Promise<SentenceJob | undefined>>,
    private readonly jobFor: (i: number) => Promise<SentenceJob | undefined>,
    private readonly signal: AbortSignal,
    private readonly standIn: boolean,
  ) {
    this.#i = first;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<AudioChunk>> {
    if (this.#busy) return this.#pending!.then(this.#again, this.#again);
    if (this.#ended) return Promise.resolve(DONE);
    const last = this.#last;
    if (last) {
      // Resumed here: the caller has this chunk.
      this.#last = undefined;
      const state = this.#job!.state;
      state.deliveredMs += durationMs(last.format, last.data.byteLength);
      this.progress.cut = state;
    }
    this.#busy = true;
    const it = this.#it;
    const pending = it ? it.next().then(this.#onItem, this.#onError) : this.#open();
    this.#pending = pending;
    return pending;
  }

  return(): Promise<IteratorResult<AudioChunk>> {
    if (this.#busy) return this.#pending!.then(this.#returnAgain, this.#returnAgain);
    if (this.#ended) return Promise.resolve(DONE);
    this.#ended = true;
    this.#last = undefined;
    const it = this.#it;
    this.#it = undefined;
    this.#release();
    // Leaving the sentence's loop early closes its chunks' iterator, as `for await` does.
    return it?.return ? it.return().then(() => DONE) : Promise.resolve(DONE);
  }

  readonly #again = () => this.next();
  readonly #returnAgain = () => this.return();

  readonly #onItem = (
    r: IteratorResult<AudioChunk>,
  ): IteratorResult<AudioChunk> | Promise<IteratorResult<AudioChunk>> => {
    if (!r.done) {
      this.#last = r.value;
      this.#busy = false;
      return r;
    }
    this.#it = undefined;
    if (this.#endSentence()) {
      this.#busy = false;
      return DONE;
    }
    return this.#open();
  };

  readonly #onError = (error: unknown): never => {
    this.#it = undefined;
    this.#ended = true;
    this.#release();
    this.#busy = false;
    throw error;
  };

  /** Reads on from sentence `#i` to the next chunk (or the end). */
  async #open(): Promise<IteratorResult<AudioChunk>> {
    try {
      for (;;) {
        const i = this.#i;
        const job = await this.jobFor(i);
        if (job === undefined) {
          this.#ended = true;
          this.#release();
          return DONE;
        }
        const queue = job.queue;
        if (queue) {
          // Look-ahead of one sentence: the next one is requested when this one's first
          // byte arrives, and buffered until this one has been delivered (no gap).
          // A stand-in speaks one sentence only: no look-ahead.
          if (!this.standIn)
            void queue.firstChunk.then(() => {
              if (!this.signal.aborted) this.jobFor(i + 1);
            });
          const it = queue.drain();
          const r = await it.next();
          if (!r.done) {
            this.#job = job;
            this.#it = it;
            this.#last = r.value;
            return r;
          }
        }
        if (this.#endSentence()) return DONE;
      }
    } catch (error) {
      this.#it = undefined;
      this.#ended = true;
      this.#release();
      throw error;
    } finally {
      this.#busy = false;
    }
  }

  /** Sentence `#i` was delivered; true when the attempt ends here (a stand-in). */
  #endSentence(): boolean {
    const i = this.#i;
    this.progress.delivered = i + 1;
    this.progress.cut = undefined;
    this.jobs.delete(i);
    this.#job = undefined;
    // Standing in for a provider that failed at this sentence: the route's order takes the
    // call back from the next one.
    if (this.standIn) {
      this.#ended = true;
      this.#release();
      return true;
    }
    this.#i = i + 1;
    return false;
  }

  /** Look-ahead requests still running are no longer wanted. */
  #release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const job of this.jobs.values())
      void job.then(
        (j) => j?.queue?.cancel(),
        () => {},
      );
  }
}
