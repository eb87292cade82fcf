import type { ProviderTtsRequest, ProviderTtsStreamRequest, WordTiming } from '../providers/types.js';
import { speakable } from '../text/speakable.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { TtsRequest } from '../types/requests.js';
import type { CallContext, CapabilityCall } from './capability.js';
import { remainingText } from './resume-text.js';
import { NOT_YET, type SentenceCut, TtsProgress } from './tts-progress.js';
import { SentenceQueue } from './tts-sentence-queue.js';
import { SentenceAttempt, type SentenceJob } from './tts-sentences.js';
import { CallerAudio, pickNativeFormat, toCallerAudio } from './tts-stream.js';
import { streamedAttempt } from './tts-streamed.js';

const NO_SIGNALS: readonly AbortSignal[] = [];

/** Default TTS output format: PCM s16le, 24 000 Hz, mono. */
export const DEFAULT_TTS_FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

/**
 * One tts() call. The text (a string, or a stream of tokens) is read once and cut into
 * sentences; an attempt asks its provider for one sentence per request, so synthesis starts
 * with the first sentence of streamed text. Requests are pipelined with a look-ahead of one
 * sentence: sentence i+1 is requested when sentence i's first byte arrives and buffered until
 * sentence i has been delivered (no gap at sentence boundaries; bytes never reordered).
 * A later sentence whose request fails before its first byte (reset, 5xx) is asked once more
 * of the same provider and voice before the route's midStream rule applies. A provider that
 * fails mid-utterance (midStream 'resume') is replaced from the first sentence not fully
 * delivered, and a sentence cut mid-way resumes after its last word fully heard, where the
 * provider sent word timestamps. The replacement stands in for that sentence only when it
 * speaks sentence by sentence: the next sentence goes to the route's order again, minus the
 * providers whose circuit breaker is open (a provider is ruled out only by its breaker). Audio reaches the caller in whole samples in
 * `request.format`; the first chunk after a switch of provider is marked
 * `discontinuity: true`. Text with nothing to speak (no letter or digit: only white space,
 * punctuation, symbols, emoji, markup) contacts no provider, and such a sentence inside a longer
 * text is skipped. Barge-in (the
 * request's signal, router.close(), breaking out) return()s the caller's text iterator.
 */
export function ttsCall(request: TtsRequest, context: CallContext): CapabilityCall<AudioChunk, 'tts'> {
  const want = request.format ?? DEFAULT_TTS_FORMAT;
  const streamed = typeof request.text !== 'string';
  // Only streamed text listens on the signals (a text given whole is read at once).
  const signals = !streamed
    ? NO_SIGNALS
    : request.signal
      ? [request.signal, context.closeSignal]
      : [context.closeSignal];
  const progress = new TtsProgress(request.text, request.language, signals);
  return {
    capability: 'tts',
    candidate(name, tts, section) {
      const voice = section.voices[request.voice];
      if (voice === undefined) return `no voice '${request.voice}' in its tts.voices`;
      const model = section.model;
      return {
        model: voice,
        // Streamed text: the attempt starts at the first word; its clocks when the provider has
        // been given enough text to speak (RouteCandidate.startsClock).
        startsClock: streamed,
        start: (attempt, standIn, ready = () => {}) => {
          const native = pickNativeFormat(tts.capabilities.outputFormats, want);
          /** The provider request of `text` (one sentence, or the streamed text). */
          const asked = <R extends ProviderTtsRequest | ProviderTtsStreamRequest>(text: R['text']): R => {
            const r = { text, voice, format: native } as R;
            if (model !== undefined) r.model = model;
            if (request.language !== undefined) r.language = request.language;
            if (request.speed !== undefined) r.speed = request.speed;
            return r;
          };
          const dropped = (droppedBytes: number, format: AudioFormat) =>
            context.logger?.warn('Dropped a stray partial sample at the end of a provider stream', {
              provider: name,
              droppedBytes,
              encoding: format.encoding,
              sampleRate: format.sampleRate,
            });
          /** Starts the request of one sentence's text (its raw provider audio). */
          const open = (text: string) => (signal: AbortSignal) =>
            tts.synthesize(asked(text), signal === attempt.signal ? attempt : { ...attempt, signal });
          /** Turns a request's audio into the caller's format, as the queue's pump reads it. */
          const toCaller = (words: WordTiming[]) => () => new CallerAudio(want, name, dropped, words);
          if (streamed && tts.capabilities.streamingText) {
            // The provider takes text as a stream: one request (context) for the utterance.
            return streamedAttempt(
              progress,
              (text) => tts.synthesize(asked(text), attempt),
              (audio, words) => toCallerAudio(audio, want, name, dropped, words),
              ready,
            );
          }
          const firstIndex = progress.delivered;
          const jobs = new Map<number, Promise<SentenceJob | undefined>>();
          /** Sentence i's request, given its text (undefined: the text ended before sentence i). */
          const jobOf = (i: number, sentence: string | undefined): SentenceJob | undefined => {
            const full = sentence?.trim();
            // The attempt's clock starts with its first request (or once there is none to make).
            if (i === firstIndex) ready();
            if (full === undefined) return undefined;
            // A sentence cut mid-way on the last provider resumes after its last word
            // fully heard, where that provider sent word timestamps.
            const cut = progress.cut?.index === i ? progress.cut : undefined;
            const text = cut ? remainingText(cut.text, cut.words, cut.deliveredMs) : full;
            const state: SentenceCut = { index: i, text, words: [], deliveredMs: 0 };
            // A sentence with nothing to speak (only punctuation, symbols, emoji, markup, or
            // the rest of a cut sentence after its last word) is skipped, not sent.
            if (!speakable(text) || attempt.signal.aborted) return { state, queue: undefined };
            // The attempt's first sentence is not retried here: before any output the router
            // falls back to the next provider. A later sentence that fails before its first
            // byte is asked once more of this provider before the route's midStream rule.
            const retries = i === firstIndex ? 0 : 1;
            return {
              state,
              queue: new SentenceQueue(open(text), attempt.signal, retries, toCaller(state.words)),
            };
          };
          /**
           * Sentence i's request, started once (undefined: the text ended before sentence i). A
           * text given whole has its sentences at once: the request starts now, with no step
           * of the event loop (no promise of the text's own).
           */
          const jobFor = (i: number): Promise<SentenceJob | undefined> => {
            let job = jobs.get(i);
            if (!job) {
              const now = progress.sentenceNow(i);
              job =
                now === NOT_YET
                  ? progress.sentence(i).then((full) => jobOf(i, full))
                  : settledJob(jobOf, i, now);
              job.catch(() => {});
              jobs.set(i, job);
            }
            return job;
          };
          return new SentenceAttempt(progress, firstIndex, jobs, jobFor, attempt.signal, standIn === true);
        },
      };
    },
    isEmpty: () => {
      const speech = progress.speechNow();
      return speech === undefined ? progress.hasSpeech().then((has) => !has) : !speech;
    },
    position: () => progress.delivered,
    unfinished: () => !progress.finished,
    callerError: () => progress.failure,
    markResumed,
    // However the call ends (done, failed, aborted, or the caller broke out: barge-in), the
    // caller's text source is released: its iterator is return()ed.
    release: () => progress.stop(),
  };
}

/** `jobOf(i, sentence)` as a settled promise: its job, or its failure. */
function settledJob(
  jobOf: (i: number, sentence: string | undefined) => SentenceJob | undefined,
  i: number,
  sentence: string | undefined,
): Promise<SentenceJob | undefined> {
  try {
    return Promise.resolve(jobOf(i, sentence));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The first chunk after a switch of provider: the audio does not continue the previous chunk. */
function markResumed(chunk: AudioChunk): AudioChunk {
  return { ...chunk, discontinuity: true };
}
