import type { ResampleOffload } from '../audio/resample-offload.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { AttemptContext, ProviderAudio, TtsProvider } from '../providers/types.js';
import { speakable } from '../text/speakable.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { TtsRequest } from '../types/requests.js';
import { remainingText } from './resume-text.js';
import { NOT_YET, type SentenceCut, type TtsProgress } from './tts-progress.js';
import { SentenceQueue } from './tts-sentence-queue.js';
import type { SentenceJob } from './tts-sentences.js';
import { CallerAudio, type DroppedBytesListener } from './tts-stream.js';

/** How one attempt asks its provider for speech: the fields of each request, and its audio's way to the caller. */
export interface SpeechAsk {
  tts: TtsProvider;
  attempt: AttemptContext;
  request: TtsRequest;
  /** The provider's voice id. */
  voice: string;
  /** The provider's model, if the config names one. */
  model: string | undefined;
  /** The format asked of the provider (see pickNativeFormat). */
  native: AudioFormat;
  /** The caller's format. */
  want: AudioFormat;
  /** The provider's name in the config. */
  provider: string;
  dropped: DroppedBytesListener;
  /** The router's resampling policy (worker thread or event loop); undefined: always on the event loop. */
  offload: ResampleOffload | undefined;
}

/**
 * The sentence requests of one attempt that speaks sentence by sentence: sentence i's request
 * is started once ({@link jobFor}) and kept in {@link jobs} until its sentence was delivered.
 * One object per attempt whose methods do the work, rather than a closure per helper (issue
 * 15, P1). A text given whole has its sentences at once: the request starts when asked for,
 * with no step of the event loop (no promise of the text's own).
 */
export class SentenceRequests {
  readonly jobs = new Map<number, Promise<SentenceJob | undefined>>();
  readonly #progress: TtsProgress;
  readonly #first: number;
  /** Called once, when the attempt's first request starts (or there is none to make). */
  #ready: (() => void) | undefined;
  readonly #ask: SpeechAsk;

  /**
   * `first`: the attempt's first sentence; `ready()` is called when its first request starts
   * (the first sentence from `first` on with something to speak), or once the text has ended
   * without one. A sentence with nothing to speak ahead of it (a reply that opens with "\n\n",
   * "...", a code fence line) starts no clock: the provider has nothing to answer until the
   * next sentence, which the caller's text (an LLM) may still be writing.
   */
  constructor(progress: TtsProgress, first: number, ready: () => void, ask: SpeechAsk) {
    this.#progress = progress;
    this.#first = first;
    this.#ready = ready;
    this.#ask = ask;
  }

  /** Sentence i's request, started once (undefined: the text ended before sentence i). */
  jobFor(i: number): Promise<SentenceJob | undefined> {
    let job = this.jobs.get(i);
    if (!job) {
      const progress = this.#progress;
      const now = progress.sentenceNow(i);
      job =
        now === NOT_YET
          ? progress.sentence(i).then((full) => this.#jobOf(i, full))
          : this.#settledJob(i, now);
      job.catch(() => {});
      this.jobs.set(i, job);
    }
    return job;
  }

  /** {@link #jobOf} as a settled promise: its job, or its failure. */
  #settledJob(i: number, sentence: string | undefined): Promise<SentenceJob | undefined> {
    try {
      return Promise.resolve(this.#jobOf(i, sentence));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Sentence i's request, given its text (undefined: the text ended before sentence i). */
  #jobOf(i: number, sentence: string | undefined): SentenceJob | undefined {
    const full = sentence?.trim();
    // The attempt's clock starts with its first request, or once there is none to make.
    if (full === undefined) {
      this.#startClock();
      return undefined;
    }
    // A sentence cut mid-way on the last provider resumes after its last word
    // fully heard, where that provider sent word timestamps.
    const progress = this.#progress;
    const cut = progress.cut?.index === i ? progress.cut : undefined;
    const text = cut ? remainingText(cut.text, cut.words, cut.deliveredMs) : full;
    const state: SentenceCut = { index: i, text, words: [], deliveredMs: 0 };
    const ask = this.#ask;
    const signal = ask.attempt.signal;
    // A sentence with nothing to speak (only punctuation, symbols, emoji, markup, or
    // the rest of a cut sentence after its last word) is skipped, not sent.
    if (!speakable(text) || signal.aborted) return { state, queue: undefined };
    this.#startClock();
    // The attempt's first sentence is not retried here: before any output the router
    // falls back to the next provider. A later sentence that fails before its first
    // byte is asked once more of this provider before the route's midStream rule.
    const retries = i === this.#first ? 0 : 1;
    const words = state.words;
    return {
      state,
      queue: new SentenceQueue<ProviderAudio, AudioChunk>(
        (on) => synthesize(ask, text, on),
        signal,
        retries,
        () => {
          // Each request (a retry too) starts the sentence's word timings anew: a request that
          // failed before any of its audio was taken is retried with that audio dropped, and its
          // words with it (a cut of the retry resumes after the retry's last word heard).
          words.length = 0;
          return new CallerAudio(ask.want, ask.provider, ask.dropped, words, {
            offload: ask.offload,
            signal: ask.attempt.signal,
          });
        },
      ),
    };
  }

  /** Starts the attempt's clock (`ready()`), once. */
  #startClock(): void {
    const ready = this.#ready;
    this.#ready = undefined;
    ready?.();
  }
}

/** Starts the request of one sentence's text on `signal` (its raw provider audio). */
function synthesize(ask: SpeechAsk, text: string, signal: AbortSource): AsyncIterable<ProviderAudio> {
  const attempt = ask.attempt;
  return ask.tts.synthesize(
    speechRequest(ask, text),
    signal === attempt.signal ? attempt : { ...attempt, signal },
  );
}

/** The provider request of `text` (one sentence, or the streamed text). */
export function speechRequest<R extends { text: unknown }>(ask: SpeechAsk, text: R['text']): R {
  const r = { text, voice: ask.voice, format: ask.native } as unknown as R & {
    model?: string;
    language?: string;
    speed?: number;
  };
  const { request, model } = ask;
  if (model !== undefined) r.model = model;
  if (request.language !== undefined) r.language = request.language;
  if (request.speed !== undefined) r.speed = request.speed;
  return r;
}
