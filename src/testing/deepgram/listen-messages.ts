import type { DeepgramMockWord } from './transcript.js';

/** What the mock puts in every message about the model and request. */
export interface ListenMessageContext {
  requestId: string;
  model: string;
  /** True when `punctuate` or `smart_format` is on: transcripts and `punctuated_word` are punctuated. */
  punctuated: boolean;
}

/** Confidence the mock reports for every word and alternative. */
export const MOCK_CONFIDENCE = 0.98;

const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * A `Results` message (PROTOCOLS.md 3.2, DGJS `ListenV1Results`) for `words`, covering the audio
 * from `startMs` to `endMs`: `start` and `duration` in seconds, the transcript (punctuated
 * words, or lower-case words without punctuation), per-word `start` / `end` in seconds and
 * `punctuated_word` when punctuation is on.
 */
export function resultsMessage(
  context: ListenMessageContext,
  words: readonly DeepgramMockWord[],
  window: { startMs: number; endMs: number },
  flags: { isFinal: boolean; speechFinal: boolean; fromFinalize: boolean },
): Record<string, unknown> {
  const transcript = words.map((w) => (context.punctuated ? w.punctuated : w.word)).join(' ');
  return {
    type: 'Results',
    channel_index: [0, 1],
    duration: seconds(window.endMs - window.startMs),
    start: seconds(window.startMs),
    is_final: flags.isFinal,
    speech_final: flags.speechFinal,
    from_finalize: flags.fromFinalize,
    channel: {
      alternatives: [
        {
          transcript,
          confidence: words.length > 0 ? MOCK_CONFIDENCE : 0,
          words: words.map((w) => ({
            word: w.word,
            start: seconds(w.startMs),
            end: seconds(w.endMs),
            confidence: MOCK_CONFIDENCE,
            ...(context.punctuated ? { punctuated_word: w.punctuated } : {}),
          })),
        },
      ],
    },
    metadata: {
      request_id: context.requestId,
      model_info: { name: context.model, version: 'voxroute-mock', arch: 'mock' },
      model_uuid: context.requestId,
    },
  };
}

/**
 * An `UtteranceEnd` message (PROTOCOLS.md 3.2, DGDOC-utterance-end), sent when the client set
 * `utterance_end_ms`: `last_word_end` is the end of the utterance's last word, in seconds.
 */
export function utteranceEndMessage(lastWordEndMs: number): Record<string, unknown> {
  return { type: 'UtteranceEnd', channel: [0, 1], last_word_end: seconds(lastWordEndMs) };
}

/**
 * A `SpeechStarted` message (PROTOCOLS.md 3.2, DGJS `ListenV1SpeechStarted`), sent when the
 * client set `vad_events=true`: `timestamp` is where the speech starts, in seconds.
 */
export function speechStartedMessage(startMs: number): Record<string, unknown> {
  return { type: 'SpeechStarted', channel: [0, 1], timestamp: seconds(startMs) };
}

/**
 * The `Metadata` message sent after CloseStream, before the close (PROTOCOLS.md 3.2,
 * DGDOC-close-stream): `duration` is the audio received, in seconds; `sha256` its hex digest.
 */
export function metadataMessage(
  context: ListenMessageContext,
  audio: { durationMs: number; sha256: string; channels: number },
): Record<string, unknown> {
  return {
    type: 'Metadata',
    transaction_key: 'deprecated',
    request_id: context.requestId,
    sha256: audio.sha256,
    created: new Date().toISOString(),
    duration: seconds(audio.durationMs),
    channels: audio.channels,
  };
}
