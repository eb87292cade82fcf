import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alawEncodeSample, mulawEncodeSample } from '../../src/audio/g711.js';
import {
  decodeInto,
  decodeToFloat32,
  encodeFromFloat32,
  floatToS16,
  s16ToFloat,
  transcode,
} from '../../src/audio/pcm-codec.js';
import { SEEDED } from '../helpers/property-seed.js';
import { firstDifference } from './helpers.js';

function s16Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(new Int16Array(values).buffer);
}

describe('PCM s16le <-> Float32', () => {
  it('scales by 32768 both ways and clamps: f32 1.0 -> 32767, -1.0 -> -32768, 2.0 -> 32767, NaN -> 0', () => {
    expect([1, -1, 2, -2, 0.5, -0.5, Number.NaN, 1 / 32768].map(floatToS16)).toEqual([
      32767, -32768, 32767, -32768, 16384, -16384, 0, 1,
    ]);
    expect([32767, -32768, 16384, 0].map(s16ToFloat)).toEqual([32767 / 32768, -1, 0.5, 0]);
    expect(Object.is(floatToS16(-0.00001), 0)).toBe(true);
  });

  it('decodes little-endian bytes, also at an odd byte offset', () => {
    const raw = Uint8Array.of(0xee, 0x00, 0x40, 0x00, 0xc0, 0xff, 0x7f);
    expect(Array.from(decodeToFloat32(raw.subarray(1, 7), 'pcm_s16le'))).toEqual([0.5, -0.5, 32767 / 32768]);
  });

  it('every s16 value survives s16 -> f32 -> s16 unchanged', () => {
    const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
    const bytes = new Uint8Array(all.buffer);
    const back = transcode(transcode(bytes, 'pcm_s16le', 'pcm_f32le'), 'pcm_f32le', 'pcm_s16le');
    expect(firstDifference(back, bytes)).toBe(-1);
  });

  it('pcm_f32le bytes are IEEE floats, little-endian; misaligned input is read byte by byte', () => {
    const out = encodeFromFloat32(Float32Array.of(0.25, -1), 'pcm_f32le');
    expect(Array.from(out)).toEqual([0x00, 0x00, 0x80, 0x3e, 0x00, 0x00, 0x80, 0xbf]);
    const shifted = new Uint8Array(9);
    shifted.set(out, 1);
    expect(Array.from(decodeToFloat32(shifted.subarray(1), 'pcm_f32le'))).toEqual([0.25, -1]);
  });

  it('decodeInto writes the values of decodeToFloat32 at the given index, for every encoding, aligned or not', () => {
    const bytes = new Uint8Array([
      0x00, 0x80, 0xff, 0x7f, 0x01, 0x00, 0x00, 0x3f, 0x55, 0xd5, 0x12, 0x34, 0x56,
    ]);
    for (const encoding of ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'] as const) {
      for (const offset of [0, 1]) {
        const width = encoding === 'pcm_s16le' ? 2 : encoding === 'pcm_f32le' ? 4 : 1;
        const data = bytes.subarray(offset, offset + 3 * width);
        const out = new Float32Array(6).fill(9);
        expect(decodeInto(data, encoding, out, 2)).toBe(3);
        expect([...out]).toEqual([9, 9, ...decodeToFloat32(data, encoding), 9]);
      }
    }
    expect(() => decodeInto(new Uint8Array(4), 'pcm_s16le', new Float32Array(2), 1)).toThrow(
      'decodeInto: 2 samples do not fit at 1 in 2',
    );
    expect(() => decodeInto(new Uint8Array(3), 'pcm_s16le', new Float32Array(4), 0)).toThrow(RangeError);
  });

  it('throws RangeError for half a sample instead of padding it', () => {
    expect(() => decodeToFloat32(new Uint8Array(3), 'pcm_s16le')).toThrow(RangeError);
    expect(() => decodeToFloat32(new Uint8Array(6), 'pcm_f32le')).toThrow(/whole 4-byte samples/);
  });

  it('transcodes s16 to mu-law and A-law at the G.711 codes, and returns the input itself for equal encodings', () => {
    const data = s16Bytes([0, 32767, -32768]);
    expect(Array.from(transcode(data, 'pcm_s16le', 'mulaw'))).toEqual([0xff, 0x80, 0x00]);
    expect(Array.from(transcode(data, 'pcm_s16le', 'alaw'))).toEqual([0xd5, 0xaa, 0x2a]);
    expect(
      Array.from(new Int16Array(transcode(Uint8Array.of(0x00, 0x80, 0xff), 'mulaw', 'pcm_s16le').buffer)),
    ).toEqual([-32124, 32124, 0]);
    expect(transcode(data, 'pcm_s16le', 'pcm_s16le')).toBe(data);
  });

  it('property: any s16 sample maps to the G.711 code of the per-sample encoder, through f32 too', () => {
    fc.assert(
      fc.property(fc.integer({ min: -32768, max: 32767 }), (s) => {
        const f32 = transcode(s16Bytes([s]), 'pcm_s16le', 'pcm_f32le');
        expect(decodeToFloat32(f32, 'pcm_f32le')[0]).toBe(s / 32768);
        expect(transcode(s16Bytes([s]), 'pcm_s16le', 'mulaw')[0]).toBe(mulawEncodeSample(s));
        expect(transcode(f32, 'pcm_f32le', 'alaw')[0]).toBe(alawEncodeSample(s));
      }),
      SEEDED,
    );
  });
});
