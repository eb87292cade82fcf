import { checkString } from '../../internal/arg-checks.js';

/**
 * The transcript the Deepgram mock's `/v1/listen` hears when none is configured.
 *
 * @example
 * ```ts
 * const mock = createDeepgramMock({ transcript: DEFAULT_DEEPGRAM_TRANSCRIPT });
 * ```
 */
export const DEFAULT_DEEPGRAM_TRANSCRIPT = 'Hello from the mock. Your table is booked for eight.';

/** Default length of one word of the mock's transcript on the audio timeline, in ms. */
export const DEEPGRAM_DEFAULT_WORD_MS = 400;

/**
 * One word of the mock's transcript on the audio timeline.
 *
 * @example
 * ```ts
 * const [first] = deepgramMockWords('Hello there.', 400); // { word: 'hello', punctuated: 'Hello', startMs: 0, endMs: 400, ... }
 * ```
 */
export interface DeepgramMockWord {
  /** Lower case, without punctuation (Deepgram's `word`). */
  word: string;
  /** As written in the transcript (Deepgram's `punctuated_word`). */
  punctuated: string;
  /** Start of the word, in ms from the start of the audio. */
  startMs: number;
  /** End of the word, in ms from the start of the audio. */
  endMs: number;
  /** True when the written word ends a sentence (`.`, `?`, `!`): the mock's endpoint. */
  sentenceEnd: boolean;
}

/**
 * The words of `transcript` (split on whitespace) laid end to end on the audio timeline:
 * word i spans `[i * wordMs, (i + 1) * wordMs)` ms from the start of the audio.
 *
 * @example
 * ```ts
 * deepgramMockWords('Hi. Bye', 300).map((w) => [w.word, w.startMs, w.endMs]); // [['hi', 0, 300], ['bye', 300, 600]]
 * ```
 * @throws TypeError naming the argument when `transcript` is not a string.
 */
export function deepgramMockWords(transcript: string, wordMs: number): DeepgramMockWord[] {
  checkString('deepgramMockWords(transcript, wordMs): transcript', transcript);
  return transcript
    .split(/\s+/)
    .filter((token) => token !== '')
    .map((punctuated, i) => ({
      word: punctuated.toLowerCase().replace(/[^\p{L}\p{N}'-]/gu, '') || punctuated,
      punctuated,
      startMs: i * wordMs,
      endMs: (i + 1) * wordMs,
      sentenceEnd: /[.?!]["')\]]*$/.test(punctuated),
    }));
}
