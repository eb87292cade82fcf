import { checkObject, checkOptionalObject, checkString } from '../../internal/arg-checks.js';
import type { AudioFormat } from '../../types/audio.js';
import { syntheticAudioFor } from '../synthetic-audio.js';

/**
 * How the ElevenLabs mock turns text into audio.
 *
 * @example
 * ```ts
 * const speech: MockElevenLabsSpeech = { msPerCharacter: 50, seed: 3 };
 * ```
 */
export interface MockElevenLabsSpeech {
  /** Audio length per character (Unicode code point, spaces included) at speed 1, in ms. Default: 60. */
  msPerCharacter?: number;
  /** Seed of the synthetic voice. Default: 0. */
  seed?: number;
}

/** Default {@link MockElevenLabsSpeech.msPerCharacter}: 60 ms. */
export const ELEVENLABS_MOCK_MS_PER_CHARACTER = 60;

/**
 * Length in ms of the mock's audio for `text`: `round(characters * msPerCharacter / speed)`,
 * characters counted as Unicode code points.
 *
 * @example
 * ```ts
 * mockElevenLabsDurationMs('Hello ', {}); // 360
 * ```
 * @throws TypeError naming the argument when `text` is not a string or `speech` not an object.
 */
export function mockElevenLabsDurationMs(text: string, speech: MockElevenLabsSpeech = {}, speed = 1): number {
  return durationOf(text, speech, speed, 'mockElevenLabsDurationMs(text, speech?, speed?)');
}

/** {@link mockElevenLabsDurationMs}, its errors naming `call`. */
function durationOf(text: string, speech: MockElevenLabsSpeech, speed: number, call: string): number {
  checkString(`${call}: text`, text);
  checkOptionalObject(`${call}: speech`, 'an object ({ msPerCharacter?, seed? })', speech);
  return Math.round(
    (Array.from(text).length * (speech.msPerCharacter ?? ELEVENLABS_MOCK_MS_PER_CHARACTER)) / speed,
  );
}

/**
 * The exact bytes the ElevenLabs mock sends for `text` in `format` (PCM s16le, mu-law or A-law;
 * see `syntheticAudio`): over HTTP the whole request text, over the WebSocket the text of each
 * generation (one per flush, schedule step or end; `ElevenLabsSocketRecord.generations` lists them).
 *
 * @example
 * ```ts
 * const ulaw = mockElevenLabsAudio('Hi there.', { encoding: 'mulaw', sampleRate: 8000 }); // 540 ms: 4320 bytes
 * ```
 * @throws TypeError naming the argument when `text` is not a string, `format` or `speech` not an
 *   object; RangeError as `syntheticAudio` does.
 */
export function mockElevenLabsAudio(
  text: string,
  format: AudioFormat,
  speech: MockElevenLabsSpeech = {},
  speed = 1,
): Uint8Array {
  const call = 'mockElevenLabsAudio(text, format, speech?, speed?)';
  checkObject(`${call}: format`, 'an AudioFormat ({ encoding, sampleRate })', format);
  return syntheticAudioFor('mockElevenLabsAudio', {
    durationMs: durationOf(text, speech, speed, call),
    format,
    seed: speech.seed ?? 0,
  });
}
