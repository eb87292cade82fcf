import { durationMs } from '../audio/format.js';
import type { AbortSource } from '../internal/abort-link.js';
import { nextOf, type Takeable } from '../internal/takeable.js';
import type { ProviderAudio } from '../providers/types.js';
import type { AudioChunk } from '../types/audio.js';
import type { SentenceCut, TtsProgress } from './tts-progress.js';
import type { SentenceQueue } from './tts-sentence-queue.js';
import type { SentenceRequests } from './tts-sentence-requests.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** One sentence of an attempt: its progress record and its request (none: nothing to say). */
export interface SentenceJob {
  state: SentenceCut;
  queue: SentenceQueue<ProviderAudio, AudioChunk> | undefined;
}

/**
 * An attempt's audio, sentence after sentence from `first`: each sentence's queue is read to
 * its end, then the next. Sentence i+1 is requested (`requests.jobFor`) when sentence i's first
 * chunk arrives (look-ahead of one).
 *
 * A hand-written iterator rather than an async generator, and a {@link Takeable}: within a
 * sentence a chunk passes by plain calls (`take()` reads the sentence's queue), with no promise
 * and no generator step (this runs for every chunk of every tts() call); only the step to the
 * next sentence awaits. It behaves as the generator it replaces: a chunk counts as delivered
 * (`progress.cut`) when the next one is asked for; a `next()` or `return()` made while a
 * `next()` is pending waits for it; however it ends (done, failed, returned), the look-ahead
 * requests still running are cancelled, once.
 */
export class SentenceAttempt implements AsyncIterableIterator<AudioChunk>, Takeable<AudioChunk> {
  #i: number;
  #job: SentenceJob | undefined;
  /** The current sentence's queue, while it has more. */
  #queue: SentenceQueue<ProviderAudio, AudioChunk> | undefined;
  /** The chunk handed out last, counted as delivered when the next one is asked for. */
  #last: AudioChunk | undefined;
  #ended = false;
  #released = false;
  /** The step to the next sentence, while it runs. */
  #opening = false;
  /** What that step found (a chunk or the end), not yet taken. */
  #found: IteratorResult<AudioChunk> | undefined;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;
  /** The pending `next()`, which a later `next()` or `return()` waits for. */
  #pending: Promise<IteratorResult<AudioChunk>> | undefined;

  constructor(
    private readonly progress: TtsProgress,
    first: number,
    private readonly requests: SentenceRequests,
    private readonly signal: AbortSource,
  ) {
    this.#i = first;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  take(): IteratorResult<AudioChunk> | undefined {
    const found = this.#found;
    if (found !== undefined) {
      this.#found = undefined;
      return found;
    }
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      throw failure.error;
    }
    if (this.#opening) return undefined;
    if (this.#ended) return DONE;
    const last = this.#last;
    if (last) {
      // Asked for the next chunk: the caller has this one.
      this.#last = undefined;
      const state = this.#job!.state;
      state.deliveredMs += durationMs(last.format, last.data.byteLength);
      this.progress.cut = state;
    }
    const queue = this.#queue;
    if (queue !== undefined) {
      let r: IteratorResult<AudioChunk> | undefined;
      try {
        r = queue.take();
      } catch (error) {
        this.#queue = undefined;
        this.#end();
        throw error;
      }
      if (r === undefined) return undefined;
      if (!r.done) {
        this.#last = r.value;
        return r;
      }
      this.#queue = undefined;
      this.#endSentence();
    }
    // Set before the call: the step may end before its first await (then its finally clears it).
    this.#opening = true;
    void this.#open();
    return undefined;
  }

  onReadable(wake: () => void): void {
    if (!this.#opening && this.#queue !== undefined) this.#queue.onReadable(wake);
    else this.#wake = wake;
  }

  next(): Promise<IteratorResult<AudioChunk>> {
    const pending = this.#pending;
    if (pending) return pending.then(this.#again, this.#again);
    const next = nextOf(this);
    this.#pending = next;
    next.then(this.#settled, this.#settled);
    return next;
  }

  return(): Promise<IteratorResult<AudioChunk>> {
    const pending = this.#pending;
    if (pending) return pending.then(this.#returnAgain, this.#returnAgain);
    if (this.#ended) return Promise.resolve(DONE);
    this.#last = undefined;
    this.#found = undefined;
    const queue = this.#queue;
    this.#queue = undefined;
    this.#end();
    // Leaving the sentence's loop early closes its chunks' iterator, as `for await` does.
    queue?.stopReading();
    return Promise.resolve(DONE);
  }

  readonly #again = () => this.next();
  readonly #returnAgain = () => this.return();
  readonly #settled = () => {
    this.#pending = undefined;
  };

  /** Reads on from sentence `#i` to its first chunk (or the end); what it finds waits in #found or #failure. */
  async #open(): Promise<void> {
    try {
      for (;;) {
        const i = this.#i;
        const job = await this.requests.jobFor(i);
        if (this.#ended) return;
        if (job === undefined) {
          this.#end();
          this.#found = DONE;
          return;
        }
        const queue = job.queue;
        if (queue) {
          // Look-ahead of one sentence: the next one is requested when this one's first
          // byte arrives, and buffered until this one has been delivered (no gap).
          // There is none after the last sentence of a text given whole.
          if (!this.progress.endsBefore(i + 1))
            void queue.firstChunk.then(() => {
              if (!this.signal.aborted) this.requests.jobFor(i + 1);
            });
          const r = await nextOf(queue);
          if (this.#ended) return;
          if (!r.done) {
            this.#job = job;
            this.#queue = queue;
            this.#last = r.value;
            this.#found = r;
            return;
          }
        }
        // Only a sentence with nothing to speak (no queue) gets here: a request that ends
        // without a whole sample fails in its CallerAudio step (an empty answer), so it is never
        // counted as delivered.
        this.#endSentence();
      }
    } catch (error) {
      if (this.#ended) return;
      this.#end();
      this.#failure = { error };
    } finally {
      this.#opening = false;
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
    }
  }

  /** Sentence `#i` was delivered: the attempt goes on to the next one. */
  #endSentence(): void {
    const i = this.#i;
    this.progress.delivered = i + 1;
    this.progress.cut = undefined;
    this.requests.jobs.delete(i);
    this.#job = undefined;
    this.#i = i + 1;
  }

  /** The attempt ended: look-ahead requests still running are no longer wanted. */
  #end(): void {
    this.#ended = true;
    if (this.#released) return;
    this.#released = true;
    for (const job of this.requests.jobs.values())
      void job.then(
        (j) => j?.queue?.cancel(),
        () => {},
      );
  }
}
