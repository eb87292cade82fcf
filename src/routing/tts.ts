import { durationMs } from '../audio/format.js';
import type { ProviderAudio, WordTiming } from '../providers/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { TtsRequest } from '../types/requests.js';
import type { CallContext, CapabilityCall } from './capability.js';
import { remainingText } from './resume-text.js';
import { type SentenceCut, TtsProgress } from './tts-progress.js';
import { pickNativeFormat, toCallerAudio } from './tts-stream.js';

/** Default TTS output format: PCM s16le, 24 000 Hz, mono. */
export const DEFAULT_TTS_FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

/**
 * One tts() call. The text (a string, or a stream of tokens) is read once and cut into
 * sentences; an attempt asks its provider for one sentence at a time, so synthesis starts with
 * the first sentence of streamed text. A provider that fails mid-utterance (midStream 'resume')
 * is replaced from the first sentence not fully delivered, and a sentence cut mid-way resumes
 * after its last word fully heard, where the provider sent word timestamps. Audio reaches the
 * caller in whole samples in `request.format`; the first chunk after a switch of provider is
 * marked `discontinuity: true`. Text with nothing to speak contacts no provider.
 */
export function ttsCall(request: TtsRequest, context: CallContext): CapabilityCall<AudioChunk, 'tts'> {
  const want = request.format ?? DEFAULT_TTS_FORMAT;
  const progress = new TtsProgress(request.text, request.language);
  return {
    capability: 'tts',
    candidate(name, tts, section) {
      const voice = section.voices[request.voice];
      if (voice === undefined) return `no voice '${request.voice}' in its tts.voices`;
      const model = section.model;
      return {
        model: voice,
        start: (attempt) => {
          const native = pickNativeFormat(tts.capabilities.outputFormats, want);
          const dropped = (droppedBytes: number, format: AudioFormat) =>
            context.logger?.warn('Dropped a stray partial sample at the end of a provider stream', {
              provider: name,
              droppedBytes,
              encoding: format.encoding,
              sampleRate: format.sampleRate,
            });
          return (async function* () {
            for (let i = progress.delivered; ; i++) {
              const full = (await progress.sentence(i))?.trim();
              if (full === undefined) return;
              // A sentence cut mid-way on the last provider resumes after its last word
              // fully heard, where that provider sent word timestamps.
              const cut = progress.cut?.index === i ? progress.cut : undefined;
              const text = cut ? remainingText(cut.text, cut.words, cut.deliveredMs) : full;
              if (text !== '') {
                const state: SentenceCut = { index: i, text, words: [], deliveredMs: 0 };
                const raw = tts.synthesize(
                  {
                    text,
                    voice,
                    ...(model !== undefined ? { model } : {}),
                    format: native,
                    ...(request.language !== undefined ? { language: request.language } : {}),
                    ...(request.speed !== undefined ? { speed: request.speed } : {}),
                  },
                  attempt,
                );
                for await (const chunk of toCallerAudio(keepWords(raw, state.words), want, name, dropped)) {
                  yield chunk;
                  // Resumed here: the caller has this chunk.
                  state.deliveredMs += durationMs(chunk.format, chunk.data.byteLength);
                  progress.cut = state;
                }
              }
              progress.delivered = i + 1;
              progress.cut = undefined;
            }
          })();
        },
      };
    },
    isEmpty: async () => !(await progress.hasSpeech()),
    callerError: () => progress.failure,
    markResumed,
  };
}

/** The first chunk after a switch of provider: the audio does not continue the previous chunk. */
function markResumed(chunk: AudioChunk): AudioChunk {
  return { ...chunk, discontinuity: true };
}

/** Passes a provider's audio through, collecting the word timestamps it carries into `words`. */
async function* keepWords(
  source: AsyncIterable<ProviderAudio>,
  words: WordTiming[],
): AsyncGenerator<ProviderAudio, void, undefined> {
  for await (const chunk of source) {
    if (chunk.words) words.push(...chunk.words);
    yield chunk;
  }
}
