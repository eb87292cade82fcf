import { checkObject, checkOptionalObject, checkString } from '../../internal/arg-checks.js';
import type { AudioEncoding, AudioFormat } from '../../types/audio.js';
import { syntheticAudioFor } from '../synthetic-audio.js';
import { voiceSampleCount } from '../synthetic-voice.js';

/**
 * How the Cartesia mock turns text into audio.
 *
 * @example
 * ```ts
 * const speech: CartesiaMockSpeech = { msPerCharacter: 50, seed: 3 };
 * ```
 */
export interface CartesiaMockSpeech {
  /** Audio length per character of the transcript (UTF-16 units), in ms. Default: 60. */
  msPerCharacter?: number;
  /** Seed of the synthetic voice. Default: 0. */
  seed?: number;
}

/** Default {@link CartesiaMockSpeech.msPerCharacter}, in ms. */
export const CARTESIA_MOCK_MS_PER_CHARACTER = 60;

/** Cartesia's encoding names (PROTOCOLS.md 1.2, 1.6) -> voxroute's. */
export const WIRE_TO_ENCODING: Readonly<Record<string, AudioEncoding>> = {
  pcm_s16le: 'pcm_s16le',
  pcm_f32le: 'pcm_f32le',
  pcm_mulaw: 'mulaw',
  pcm_alaw: 'alaw',
};

/** Sample rates Cartesia's `output_format` accepts, in Hz (PROTOCOLS.md 1.2). */
export const MOCK_SAMPLE_RATES: readonly number[] = [8000, 16000, 22050, 24000, 44100, 48000];

/**
 * The audio the Cartesia mock sends for `text` in `format`: the synthetic voice lasting
 * `text.length * msPerCharacter` ms, made directly in `format` (see `syntheticAudio`). Audio of
 * a longer text starts with exactly the bytes of a shorter prefix of it, so the pieces of a
 * streamed context join to the audio of the whole text. Use it to predict the mock's audio.
 *
 * @example
 * ```ts
 * const expected = mockCartesiaAudio('Hi there.', { encoding: 'mulaw', sampleRate: 8000 }); // 540 ms: 4320 bytes
 * ```
 * @throws TypeError naming the argument when `text` is not a string, `format` or `speech` not an
 *   object; RangeError as `syntheticAudio` does.
 */
export function mockCartesiaAudio(
  text: string,
  format: AudioFormat,
  speech: CartesiaMockSpeech = {},
): Uint8Array {
  checkString('mockCartesiaAudio(text, format, speech?): text', text);
  checkObject(
    'mockCartesiaAudio(text, format, speech?): format',
    'an AudioFormat ({ encoding, sampleRate })',
    format,
  );
  checkOptionalObject('mockCartesiaAudio: speech', 'an object ({ msPerCharacter?, seed? })', speech);
  return syntheticAudioFor('mockCartesiaAudio', {
    durationMs: text.length * (speech.msPerCharacter ?? CARTESIA_MOCK_MS_PER_CHARACTER),
    format,
    seed: speech.seed ?? 0,
  });
}

/** Samples in the audio of a text of `length` characters at `sampleRate` Hz (see {@link mockCartesiaAudio}). Internal. */
export function mockCartesiaSampleCount(
  length: number,
  sampleRate: number,
  speech: CartesiaMockSpeech = {},
): number {
  return voiceSampleCount(length * (speech.msPerCharacter ?? CARTESIA_MOCK_MS_PER_CHARACTER), sampleRate);
}

/** Word timestamps in Cartesia's shape: parallel arrays, times in seconds. */
export interface CartesiaWordTimestamps {
  /** The words, in order. */
  words: string[];
  /** Start of each word (same index as `words`), in seconds from the start of the context's audio. */
  start: number[];
  /** End of each word (same index as `words`), in seconds from the start of the context's audio. */
  end: number[];
}

/**
 * The word timestamps the mock sends for the words of `text` (runs of non-space characters)
 * that start at or after character `from` and end before character `until`: a word from
 * character a to b (exclusive) is spoken from `a * msPerCharacter` to `b * msPerCharacter` ms,
 * given in seconds.
 *
 * @example
 * ```ts
 * mockWordTimestamps('Hi there.', 0, 9); // { words: ['Hi', 'there.'], start: [0, 0.18], end: [0.12, 0.54] }
 * ```
 * @throws TypeError naming the argument when `text` is not a string or `speech` not an object.
 */
export function mockWordTimestamps(
  text: string,
  from: number,
  until: number,
  speech: CartesiaMockSpeech = {},
): CartesiaWordTimestamps {
  checkString('mockWordTimestamps(text, from, until, speech?): text', text);
  checkOptionalObject('mockWordTimestamps: speech', 'an object ({ msPerCharacter?, seed? })', speech);
  const perChar = speech.msPerCharacter ?? CARTESIA_MOCK_MS_PER_CHARACTER;
  const out: CartesiaWordTimestamps = { words: [], start: [], end: [] };
  for (const match of text.matchAll(/\S+/g)) {
    const a = match.index;
    const b = a + match[0].length;
    if (a < from || b > until) continue;
    out.words.push(match[0]);
    out.start.push((a * perChar) / 1000);
    out.end.push((b * perChar) / 1000);
  }
  return out;
}

/**
 * Appends to `out` the timestamps of the words of `text` (as {@link mockWordTimestamps} gives
 * them) from character `from`, which must not be inside a word, up to the first word that does
 * not end by character `until`; returns the character after the last word appended (`from`
 * when none), where the next call goes on. Internal: the TTS socket stamps the words of a
 * growing text without scanning it again.
 */
export function appendWordTimestamps(
  text: string,
  from: number,
  until: number,
  speech: CartesiaMockSpeech,
  out: CartesiaWordTimestamps,
): number {
  const perChar = speech.msPerCharacter ?? CARTESIA_MOCK_MS_PER_CHARACTER;
  const word = /\S+/g;
  word.lastIndex = from;
  let next = from;
  for (
    let match = word.exec(text);
    match && match.index + match[0].length <= until;
    match = word.exec(text)
  ) {
    next = match.index + match[0].length;
    out.words.push(match[0]);
    out.start.push((match.index * perChar) / 1000);
    out.end.push((next * perChar) / 1000);
  }
  return next;
}

/** `bytes` cut into pieces of at most `size` bytes (at least 1). */
export function slices(bytes: Uint8Array, size: number): Uint8Array[] {
  const step = Math.max(1, Math.floor(size));
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += step) out.push(bytes.subarray(i, i + step));
  return out;
}
