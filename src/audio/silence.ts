import type { AudioFormat } from '../types/audio.js';
import { bytesPerFrame } from './format.js';
import { ALAW_SILENCE, MULAW_SILENCE } from './g711.js';

/**
 * `ms` milliseconds of digital silence in `format`: round(ms x sampleRate / 1000) frames.
 * - pcm_s16le, pcm_f32le: zero bytes;
 * - mulaw: 0xFF bytes (0x00 is full-scale negative in mu-law, heard as loud noise);
 * - alaw: 0xD5 bytes (the G.711 idle code, +8 of 32768).
 * e.g. 100 ms of 8 kHz mu-law is 800 bytes of 0xFF.
 * @throws RangeError when `ms` is negative or not finite.
 */
export function silence(format: AudioFormat, ms: number): Uint8Array {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`silence: ms must be >= 0, got ${ms}`);
  const frames = Math.round((ms * format.sampleRate) / 1000);
  const out = new Uint8Array(frames * bytesPerFrame(format));
  if (format.encoding === 'mulaw') out.fill(MULAW_SILENCE);
  else if (format.encoding === 'alaw') out.fill(ALAW_SILENCE);
  return out;
}
