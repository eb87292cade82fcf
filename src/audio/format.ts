import { nameOrShape, valueShape } from '../internal/value-shape.js';
import type { AudioEncoding, AudioFormat } from '../types/audio.js';

/** The encodings voxroute reads and writes. */
export const AUDIO_ENCODINGS: readonly AudioEncoding[] = ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'];

/**
 * Bytes of one sample of one channel: 2 for pcm_s16le, 4 for pcm_f32le, 1 for mulaw and alaw.
 * @throws RangeError naming any other encoding (e.g. `'mp3'` from untyped code).
 */
export function bytesPerSample(encoding: AudioEncoding): number {
  switch (encoding) {
    case 'pcm_s16le':
      return 2;
    case 'pcm_f32le':
      return 4;
    case 'mulaw':
    case 'alaw':
      return 1;
    default:
      throw new RangeError(
        `audio encoding '${String(encoding)}' is not one of ${AUDIO_ENCODINGS.join(', ')}`,
      );
  }
}

/**
 * Checks that `channels` (a format's `channels`, undefined meaning 1) is 1: voxroute's audio is
 * mono everywhere (the router, the converter, the WAV reader and every audio helper).
 * @throws RangeError `<where>: format.channels must be 1 (voxroute's audio is mono), got 2`.
 */
export function assertMono(where: string, channels: unknown): void {
  if (channels === undefined || channels === 1) return;
  throw new RangeError(
    `${where}: format.channels must be 1 (voxroute's audio is mono), got ${typeof channels === 'number' ? channels : valueShape(channels)}`,
  );
}

/**
 * Throws the RangeError `${where}: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw,
 * alaw, got '<value>'` unless `encoding` is one of them, naming the function the caller called
 * (the wording of wavHeader's, encodeWav's and SampleFramer's).
 */
export function assertEncoding(where: string, encoding: unknown): asserts encoding is AudioEncoding {
  if (typeof encoding === 'string' && (AUDIO_ENCODINGS as readonly string[]).includes(encoding)) return;
  throw new RangeError(
    `${where}: format.encoding must be one of ${AUDIO_ENCODINGS.join(', ')}, got ${nameOrShape(encoding)}`,
  );
}

/** Bytes of one frame (one sample of every channel) of `format`. */
export function bytesPerFrame(format: AudioFormat): number {
  return bytesPerSample(format.encoding) * (format.channels ?? 1);
}

/**
 * Duration in ms of `byteLength` bytes of `format` (mono: `channels` omitted or 1; not rounded).
 * @throws RangeError naming the value: a `byteLength` that is negative or not finite, a
 *   `format.sampleRate` that is not a finite number above 0 (0 Hz would give `Infinity`), a
 *   `format.channels` other than 1 (voxroute's audio is mono), an unknown `format.encoding`;
 *   TypeError when `format` is not an object.
 */
export function durationMs(format: AudioFormat, byteLength: number): number {
  if (typeof format !== 'object' || format === null)
    throw new TypeError(
      `durationMs(format, byteLength): format must be an AudioFormat ({ encoding, sampleRate }), got ${valueShape(format)}`,
    );
  assertMono('durationMs', format.channels);
  assertEncoding('durationMs', format.encoding);
  if (!Number.isFinite(byteLength) || byteLength < 0)
    throw new RangeError(`durationMs: byteLength must be a number of bytes >= 0, got ${byteLength}`);
  if (!Number.isFinite(format.sampleRate) || format.sampleRate <= 0)
    throw new RangeError(
      `durationMs: format.sampleRate must be a number of Hz above 0, got ${format.sampleRate}`,
    );
  return (byteLength / bytesPerFrame(format) / format.sampleRate) * 1000;
}

/** True when two formats have the same encoding, sample rate and channel count. */
export function sameFormat(a: AudioFormat, b: AudioFormat): boolean {
  return (
    a.encoding === b.encoding && a.sampleRate === b.sampleRate && (a.channels ?? 1) === (b.channels ?? 1)
  );
}

/**
 * A frozen copy of `format`'s fields (`encoding`, `sampleRate`, and `channels` when it has one,
 * so the copy deep-equals it): what a stream states as its chunks' format, made once per call,
 * so the caller's own object can change later without relabelling the call's audio, and a
 * chunk's format cannot be changed through the chunk.
 */
export function frozenFormat(format: Readonly<AudioFormat>): Readonly<AudioFormat> {
  const { encoding, sampleRate, channels } = format;
  return Object.freeze(
    channels === undefined ? { encoding, sampleRate } : { encoding, sampleRate, channels },
  );
}

/** `pcm_s16le@24000Hz` style label, for messages and logs. */
export function formatLabel(format: AudioFormat): string {
  return `${format.encoding}@${format.sampleRate}Hz${(format.channels ?? 1) > 1 ? `x${format.channels}` : ''}`;
}
