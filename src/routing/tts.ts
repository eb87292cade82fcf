import { frozenFormat } from '../audio/format.js';
import { ownValue } from '../internal/own.js';
import type { ProviderTtsStreamRequest } from '../providers/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { TtsRequest } from '../types/requests.js';
import type { CallContext, CapabilityCall } from './capability.js';
import { TtsProgress } from './tts-progress.js';
import { SentenceRequests, type SpeechAsk, speechRequest } from './tts-sentence-requests.js';
import { SentenceAttempt } from './tts-sentences.js';
import { pickNativeFormat, toCallerAudio } from './tts-stream.js';
import { streamedAttempt } from './tts-streamed.js';

const NO_SIGNALS: readonly AbortSignal[] = [];

function noop(): void {}

/** The logical voices a provider's tts section maps. */
const voicesOf = (section: { voices: Record<string, string> }): string[] => Object.keys(section.voices);

/**
 * Default TTS output format: PCM s16le, 24 000 Hz, mono (`{ encoding: 'pcm_s16le', sampleRate:
 * 24000, channels: 1 }`). Frozen: a tts() call without `format` states this very object as
 * every chunk's `format`, so it can be compared with `===` but not changed.
 */
export const DEFAULT_TTS_FORMAT: Readonly<AudioFormat> = Object.freeze({
  encoding: 'pcm_s16le',
  sampleRate: 24_000,
  channels: 1,
});

/**
 * One tts() call. The text (a string, or a stream of tokens) is read once and cut into
 * sentences; an attempt asks its provider for one sentence per request, so synthesis starts
 * with the first sentence of streamed text. Requests are pipelined with a look-ahead of one
 * sentence: sentence i+1 is requested when sentence i's first byte arrives and buffered until
 * sentence i has been delivered (no gap at sentence boundaries; bytes never reordered).
 * A later sentence whose request fails before its first byte (reset, 5xx), or part-way while
 * it was buffered ahead and none of its audio was delivered (that audio is dropped), is asked
 * once more of the same provider and voice before the route's midStream rule applies. A provider that
 * fails mid-utterance (midStream 'resume') is replaced from the first sentence not fully
 * delivered, and a sentence cut mid-way resumes after its last word fully heard, where the
 * provider sent word timestamps. The replacement keeps the rest of the call: the provider that
 * failed goes to the back of the call's order, and is asked again in this call only once the
 * providers before it failed too (or their circuit breakers are open). Its look-ahead request,
 * in flight or answered, is cancelled, and that sentence is asked of the replacement once.
 * Audio reaches the caller in whole samples in
 * `request.format` (each chunk's `format`: a frozen copy of it, the same object for the whole
 * call, or DEFAULT_TTS_FORMAT itself); the first chunk after a switch of provider is marked
 * `discontinuity: true`. Text with nothing to speak (no letter or digit: only white space,
 * punctuation, symbols, emoji, markup) contacts no provider, and such a sentence inside a longer
 * text is skipped. Barge-in (the
 * request's signal, router.close(), breaking out) return()s the caller's text iterator.
 */
export function ttsCall(request: TtsRequest, context: CallContext): CapabilityCall<AudioChunk, 'tts'> {
  // The format every chunk states: frozen, made once per call (never per chunk), so neither a
  // caller changing its request's object mid-call nor a write to a chunk's format relabels audio.
  const want = request.format === undefined ? DEFAULT_TTS_FORMAT : frozenFormat(request.format);
  const streamed = typeof request.text !== 'string';
  // Only streamed text listens on the signals (a text given whole is read at once).
  const signals = !streamed
    ? NO_SIGNALS
    : request.signal
      ? [request.signal, context.closeSignal]
      : [context.closeSignal];
  const progress = new TtsProgress(request.text, request.language, signals, context.redact, context.clock);
  return {
    capability: 'tts',
    mapped: { field: 'voice', name: request.voice, known: voicesOf },
    candidate(name, tts, section) {
      const voice = ownValue(section.voices, request.voice);
      if (voice === undefined) return `no voice '${request.voice}' in its tts.voices`;
      const model = section.model;
      return {
        model: voice,
        // Streamed text: the attempt starts at the first word; its clocks when the provider has
        // been given enough text to speak (RouteCandidate.startsClock).
        startsClock: streamed,
        start: (attempt, ready = noop) => {
          const ask: SpeechAsk = {
            tts,
            attempt,
            request,
            voice,
            model,
            native: pickNativeFormat(tts.capabilities.outputFormats, want),
            want,
            provider: name,
            offload: context.resampling,
            dropped: (droppedBytes: number, format: AudioFormat) =>
              context.logger?.warn('Dropped a stray partial sample at the end of a provider stream', {
                provider: name,
                droppedBytes,
                encoding: format.encoding,
                sampleRate: format.sampleRate,
              }),
          };
          if (streamed && tts.capabilities.streamingText) {
            // The provider takes text as a stream: one request (context) for the utterance.
            return streamedAttempt(
              progress,
              name,
              (text) => tts.synthesize(speechRequest<ProviderTtsStreamRequest>(ask, text), attempt),
              (audio, words, onClausesDone) =>
                toCallerAudio(
                  audio,
                  want,
                  name,
                  ask.dropped,
                  words,
                  { offload: ask.offload, signal: attempt.signal },
                  onClausesDone,
                ),
              ready,
            );
          }
          const first = progress.delivered;
          const requests = new SentenceRequests(progress, first, ready, ask);
          return new SentenceAttempt(progress, first, requests, attempt.signal);
        },
      };
    },
    isEmpty: () => {
      const speech = progress.speechNow();
      return speech === undefined ? progress.hasSpeech().then((has) => !has) : !speech;
    },
    position: () => progress.delivered,
    callerError: () => progress.failure,
    markResumed,
    // However the call ends (done, failed, aborted, or the caller broke out: barge-in), the
    // caller's text source is released: its iterator is return()ed.
    release: () => progress.stop(),
  };
}

/** The first chunk after a switch of provider: the audio does not continue the previous chunk. */
function markResumed(chunk: AudioChunk): AudioChunk {
  return { ...chunk, discontinuity: true };
}
