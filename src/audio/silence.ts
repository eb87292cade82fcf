import type { AudioFormat } from '../types/audio.js';
import { AUDIO_ENCODINGS, assertMono, bytesPerFrame } from './format.js';
import { ALAW_SILENCE, MULAW_SILENCE } from './g711.js';

/**
 * `ms` milliseconds of digital silence in `format` (mono): round(ms x sampleRate / 1000) samples.
 * - pcm_s16le, pcm_f32le: zero bytes;
 * - mulaw: 0xFF bytes (0x00 is full-scale negative in mu-law, heard as loud noise);
 * - alaw: 0xD5 bytes (the G.711 idle code, +8 of 32768).
 * e.g. 100 ms of 8 kHz mu-law is 800 bytes of 0xFF.
 * @throws TypeError when `format` is not an object or `ms` not a number (the arguments are
 *   `(format, ms)`, in that order). RangeError when `ms` is negative or not finite,
 *   `format.encoding` is not one of pcm_s16le, pcm_f32le, mulaw, alaw, or `format.sampleRate`
 *   is not a positive integer, or `format.channels` is not 1 (voxroute's audio is mono).
 */
export function silence(format: AudioFormat, ms: number): Uint8Array {
  if (typeof format !== 'object' || format === null || typeof ms !== 'number')
    throw new TypeError(
      `silence(format, ms): expected an AudioFormat ({ encoding, sampleRate }) and a number of ms, got (${shown(format)}, ${shown(ms)})`,
    );
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`silence: ms must be >= 0, got ${ms}`);
  if (!AUDIO_ENCODINGS.includes(format.encoding))
    throw new RangeError(
      `silence: format.encoding '${String(format.encoding)}' is not one of ${AUDIO_ENCODINGS.join(', ')}`,
    );
  if (!Number.isInteger(format.sampleRate) || format.sampleRate < 1)
    throw new RangeError(
      `silence: format.sampleRate must be a whole number of Hz above 0, got ${format.sampleRate}`,
    );
  assertMono('silence', format.channels);
  const frames = Math.round((ms * format.sampleRate) / 1000);
  const out = new Uint8Array(frames * bytesPerFrame(format));
  if (format.encoding === 'mulaw') out.fill(MULAW_SILENCE);
  else if (format.encoding === 'alaw') out.fill(ALAW_SILENCE);
  return out;
}

/** An argument as a message shows it: a string quoted, an object as JSON (cut at 60 characters). */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.slice(0, 60)}'`;
  if (typeof value !== 'object' || value === null) return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return json === undefined ? Object.prototype.toString.call(value) : json.slice(0, 60);
}

/**
 * True when every byte of `bytes` is digital silence in `format`: zero bytes for pcm_s16le and
 * pcm_f32le; 0xFF or 0x7F (positive and negative zero) for mulaw; 0xD5 or 0x55 (+8 and -8, the
 * two levels nearest zero) for alaw. An empty array is silence. Only exact codes count: a
 * microphone's noise floor is not digital silence.
 */
export function isDigitalSilence(format: AudioFormat, bytes: Uint8Array): boolean {
  const [a, b] =
    format.encoding === 'mulaw'
      ? [MULAW_SILENCE, 0x7f]
      : format.encoding === 'alaw'
        ? [ALAW_SILENCE, 0x55]
        : [0, 0];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== a && byte !== b) return false;
  }
  return true;
}
