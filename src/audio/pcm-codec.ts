import type { AudioEncoding } from '../types/audio.js';
import { bytesPerSample } from './format.js';
import { alawDecodeSample, alawEncodeSample, mulawDecodeSample, mulawEncodeSample } from './g711.js';

/**
 * Conversion between encoded sample bytes and Float32 samples in [-1, 1].
 *
 * Scaling (the same factor both ways, so pcm_s16le -> f32 -> pcm_s16le is exact):
 * - to float: f = s / 32768 (s16 -32768..32767 gives -1..0.99997);
 * - from float: s = round(f x 32768), clamped to -32768..32767 (so 1.0 gives 32767 and
 *   anything louder clips instead of wrapping); NaN gives 0.
 * mu-law and A-law go through their 16-bit G.711 values ({@link ./g711.ts}), so a G.711
 * code -> f32 -> G.711 code round trip is exact too.
 *
 * Samples are little-endian on the wire. Views are used where the host is little-endian and
 * the bytes are aligned; otherwise bytes are read one by one.
 */

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

let mulawToS16: Int16Array | undefined;
let alawToS16: Int16Array | undefined;
let s16ToMulaw: Uint8Array | undefined;
let s16ToAlaw: Uint8Array | undefined;

function decodeTable(kind: 'mulaw' | 'alaw'): Int16Array {
  if (kind === 'mulaw') {
    mulawToS16 ??= Int16Array.from({ length: 256 }, (_, code) => mulawDecodeSample(code));
    return mulawToS16;
  }
  alawToS16 ??= Int16Array.from({ length: 256 }, (_, code) => alawDecodeSample(code));
  return alawToS16;
}

/** 64 KiB table: index s + 32768 -> G.711 code; built on first use. */
function encodeTable(kind: 'mulaw' | 'alaw'): Uint8Array {
  const build = (encode: (s: number) => number) => {
    const table = new Uint8Array(65536);
    for (let i = 0; i < 65536; i++) table[i] = encode(i - 32768);
    return table;
  };
  if (kind === 'mulaw') {
    s16ToMulaw ??= build(mulawEncodeSample);
    return s16ToMulaw;
  }
  s16ToAlaw ??= build(alawEncodeSample);
  return s16ToAlaw;
}

/** Signed 16-bit sample of a float in [-1, 1]: round(f x 32768), clamped; NaN -> 0. */
export function floatToS16(f: number): number {
  const s = Math.round(f * 32768);
  if (s > 32767) return 32767;
  if (s < -32768) return -32768;
  return s || 0;
}

/** Float in [-1, 1) of a signed 16-bit sample: s / 32768. */
export function s16ToFloat(s: number): number {
  return s / 32768;
}

/**
 * Decodes whole samples of `encoding` into Float32 samples in [-1, 1] (one per sample).
 * A pcm_f32le input on an aligned little-endian buffer comes back as a view (no copy).
 * @throws RangeError when `data` is not a whole number of samples.
 */
export function decodeToFloat32(data: Uint8Array, encoding: AudioEncoding): Float32Array {
  const width = bytesPerSample(encoding);
  checkWhole(data, width, encoding);
  const n = data.byteLength / width;
  if (encoding === 'pcm_f32le' && LITTLE_ENDIAN_HOST && data.byteOffset % 4 === 0)
    return new Float32Array(data.buffer, data.byteOffset, n);
  const out = new Float32Array(n);
  decodeInto(data, encoding, out, 0);
  return out;
}

/**
 * Decodes whole samples of `encoding` into `out` from index `at` (the same values as
 * {@link decodeToFloat32}, with no array of its own: the resampler decodes straight into its
 * input area). Returns the number of samples written.
 * @throws RangeError when `data` is not a whole number of samples, or `out` has no room for them.
 */
export function decodeInto(data: Uint8Array, encoding: AudioEncoding, out: Float32Array, at: number): number {
  const width = bytesPerSample(encoding);
  checkWhole(data, width, encoding);
  const n = data.byteLength / width;
  if (at < 0 || at + n > out.length)
    throw new RangeError(`decodeInto: ${n} samples do not fit at ${at} in ${out.length}`);
  switch (encoding) {
    case 'pcm_s16le': {
      if (LITTLE_ENDIAN_HOST && data.byteOffset % 2 === 0) {
        const s16 = new Int16Array(data.buffer, data.byteOffset, n);
        for (let i = 0; i < n; i++) out[at + i] = s16[i]! / 32768;
      } else {
        const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
        for (let i = 0; i < n; i++) out[at + i] = view.getInt16(i * 2, true) / 32768;
      }
      return n;
    }
    case 'pcm_f32le': {
      if (LITTLE_ENDIAN_HOST && data.byteOffset % 4 === 0) {
        out.set(new Float32Array(data.buffer, data.byteOffset, n), at);
        return n;
      }
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      for (let i = 0; i < n; i++) out[at + i] = view.getFloat32(i * 4, true);
      return n;
    }
    case 'mulaw':
    case 'alaw': {
      const table = decodeTable(encoding);
      for (let i = 0; i < n; i++) out[at + i] = table[data[i]!]! / 32768;
      return n;
    }
  }
}

/**
 * Encodes Float32 samples (nominally [-1, 1]; louder values clip) as `encoding` bytes:
 * `samples.length` x bytes per sample. pcm_f32le copies the floats as they are (no clamping).
 */
export function encodeFromFloat32(samples: Float32Array, encoding: AudioEncoding): Uint8Array {
  const n = samples.length;
  switch (encoding) {
    case 'pcm_s16le': {
      const out = new Uint8Array(n * 2);
      if (LITTLE_ENDIAN_HOST) {
        const s16 = new Int16Array(out.buffer);
        for (let i = 0; i < n; i++) s16[i] = floatToS16(samples[i]!);
      } else {
        const view = new DataView(out.buffer);
        for (let i = 0; i < n; i++) view.setInt16(i * 2, floatToS16(samples[i]!), true);
      }
      return out;
    }
    case 'pcm_f32le': {
      if (LITTLE_ENDIAN_HOST) return new Uint8Array(Float32Array.from(samples).buffer);
      const out = new Uint8Array(n * 4);
      const view = new DataView(out.buffer);
      for (let i = 0; i < n; i++) view.setFloat32(i * 4, samples[i]!, true);
      return out;
    }
    case 'mulaw':
    case 'alaw': {
      const table = encodeTable(encoding);
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = table[floatToS16(samples[i]!) + 32768]!;
      return out;
    }
  }
}

/**
 * Decodes G.711 codes (one byte each) to their signed 16-bit values (the ITU-T G.711 levels of
 * ./g711.ts), written into `out` from index `at`: the resampler's int16 path decodes mu-law and
 * A-law straight into its input area. Returns the number of samples written.
 * @throws RangeError when `out` has no room for them.
 */
export function decodeG711Into(
  data: Uint8Array,
  encoding: 'mulaw' | 'alaw',
  out: Int16Array,
  at: number,
): number {
  const n = data.byteLength;
  if (at < 0 || at + n > out.length)
    throw new RangeError(`decodeG711Into: ${n} samples do not fit at ${at} in ${out.length}`);
  const table = decodeTable(encoding);
  for (let i = 0; i < n; i++) out[at + i] = table[data[i]!]!;
  return n;
}

/**
 * G.711 codes of `n` signed 16-bit samples of `samples` from index `at` (a view of the
 * resampler's output area): one byte each, the code the per-sample encoder of ./g711.ts gives,
 * through a 64 KiB lookup table built on first use.
 * @throws RangeError when `samples` holds fewer than `at + n` samples.
 */
export function encodeG711FromS16(
  samples: Int16Array,
  at: number,
  n: number,
  encoding: 'mulaw' | 'alaw',
): Uint8Array {
  if (at < 0 || n < 0 || at + n > samples.length)
    throw new RangeError(`encodeG711FromS16: ${n} samples at ${at} are not inside ${samples.length}`);
  const table = encodeTable(encoding);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = table[samples[at + i]! + 32768]!;
  return out;
}

/**
 * Converts whole samples from one encoding to another at the same rate. Identical encodings
 * return `data` itself (no copy).
 * @throws RangeError when `data` is not a whole number of samples of `from`.
 */
export function transcode(data: Uint8Array, from: AudioEncoding, to: AudioEncoding): Uint8Array {
  if (from === to) return data;
  return encodeFromFloat32(decodeToFloat32(data, from), to);
}

function checkWhole(data: Uint8Array, width: number, encoding: AudioEncoding): void {
  if (data.byteLength % width !== 0) {
    throw new RangeError(
      `${encoding} data must be whole ${width}-byte samples, got ${data.byteLength} bytes (frame it with SampleFramer first)`,
    );
  }
}
