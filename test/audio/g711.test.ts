import { describe, expect, it } from 'vitest';
import {
  ALAW_SILENCE,
  alawDecodeSample,
  alawEncodeSample,
  MULAW_SILENCE,
  mulawDecodeSample,
  mulawEncodeSample,
} from '../../src/audio/g711.js';
import { decodeToFloat32, encodeFromFloat32 } from '../../src/audio/pcm-codec.js';
import { silence } from '../../src/audio/silence.js';
import type { AudioFormat } from '../../src/types/audio.js';

/**
 * Reconstruction values of ITU-T G.711, written from the standard's tables (Table 2a mu-law in
 * 14-bit units, Table 1a A-law in 13-bit units), left-justified to 16 bits as ITU-T G.191 does.
 */
function g711MulawReference(code: number): number {
  const inverted = ~code & 0xff;
  const exponent = (inverted >> 4) & 0x07;
  const mantissa = inverted & 0x0f;
  const magnitude = (((2 * mantissa + 33) << exponent) - 33) * 4;
  return inverted & 0x80 && magnitude !== 0 ? -magnitude : magnitude; // 0x7F is a negative zero: 0
}

function g711AlawReference(code: number): number {
  const x = code ^ 0x55;
  const exponent = (x >> 4) & 0x07;
  const mantissa = x & 0x0f;
  const magnitude = (exponent === 0 ? 2 * mantissa + 1 : (2 * mantissa + 33) << (exponent - 1)) * 8;
  return x & 0x80 ? magnitude : -magnitude; // in A-law the sign bit set means positive
}

const codes = Array.from({ length: 256 }, (_, i) => i);

describe('G.711 mu-law', () => {
  it('C12: encodes 0, 32767, -32768 to 0xFF, 0x80, 0x00 and 16000 to a code decoding to 15996', () => {
    expect([0, 16000, -16000, 32767, -32768].map(mulawEncodeSample)).toEqual([0xff, 0x90, 0x10, 0x80, 0x00]);
    expect(mulawDecodeSample(mulawEncodeSample(16000))).toBe(15996);
    expect(mulawDecodeSample(mulawEncodeSample(-16000))).toBe(-15996);
  });

  it('C12: decodes 0x00, 0x80, 0xFF, 0x7F to -32124, +32124, 0, 0 (0x00 is not silence)', () => {
    const decoded = [0x00, 0x80, 0xff, 0x7f].map(mulawDecodeSample);
    expect(decoded).toEqual([-32124, 32124, 0, 0]);
    expect(Object.is(decoded[3], 0)).toBe(true); // not -0
  });

  it('C12: all 256 codes decode to the ITU-T G.711 values, and re-encode to themselves except 0x7F (negative zero -> 0xFF)', () => {
    expect(codes.map(mulawDecodeSample)).toEqual(codes.map(g711MulawReference));
    const roundTrip = codes.map((c) => mulawEncodeSample(mulawDecodeSample(c)));
    expect(roundTrip).toEqual(codes.map((c) => (c === 0x7f ? 0xff : c)));
  });

  it('C12: the same values hold through the byte codec and Float32 (decode -> f32 -> encode is exact)', () => {
    const all = Uint8Array.from(codes);
    const floats = decodeToFloat32(all, 'mulaw');
    expect(Array.from(floats, (f) => f * 32768)).toEqual(codes.map(g711MulawReference));
    expect(Array.from(encodeFromFloat32(floats, 'mulaw'))).toEqual(codes.map((c) => (c === 0x7f ? 0xff : c)));
    const s16 = new Int16Array([0, 16000, -16000, 32767, -32768]);
    expect(
      Array.from(encodeFromFloat32(decodeToFloat32(new Uint8Array(s16.buffer), 'pcm_s16le'), 'mulaw')),
    ).toEqual([0xff, 0x90, 0x10, 0x80, 0x00]);
  });

  it('C12: sign is symmetric: decode(c) = -decode(c ^ 0x80) for every code', () => {
    expect(codes.map((c) => mulawDecodeSample(c) + mulawDecodeSample(c ^ 0x80))).toEqual(codes.map(() => 0));
  });

  it('C12: a 100 ms gap in 8 kHz mu-law is 800 bytes of 0xFF, never 0x00', () => {
    const gap = silence({ encoding: 'mulaw', sampleRate: 8000 }, 100);
    expect(gap.byteLength).toBe(800);
    expect(gap.every((b) => b === 0xff)).toBe(true);
    expect(MULAW_SILENCE).toBe(0xff);
  });
});

describe('G.711 A-law', () => {
  it('all 256 codes decode to the ITU-T G.711 values and re-encode to themselves', () => {
    expect(codes.map(alawDecodeSample)).toEqual(codes.map(g711AlawReference));
    expect(codes.map((c) => alawEncodeSample(alawDecodeSample(c)))).toEqual(codes);
  });

  it('encodes 0 to 0xD5, saturates at +-32256, and its silence fill is 0xD5', () => {
    expect([0, 32767, -32768].map(alawEncodeSample)).toEqual([0xd5, 0xaa, 0x2a]);
    expect([0xd5, 0x55, 0xaa, 0x2a].map(alawDecodeSample)).toEqual([8, -8, 32256, -32256]);
    const gap = silence({ encoding: 'alaw', sampleRate: 8000 }, 20);
    expect(gap.byteLength).toBe(160);
    expect(gap.every((b) => b === ALAW_SILENCE && b === 0xd5)).toBe(true);
  });
});

describe('silence', () => {
  it('is zero bytes for PCM: 10 ms of 16 kHz s16 is 320 bytes, of 24 kHz f32 is 960 bytes', () => {
    const s16 = silence({ encoding: 'pcm_s16le', sampleRate: 16000 }, 10);
    const f32 = silence({ encoding: 'pcm_f32le', sampleRate: 24000 }, 10);
    expect([s16.byteLength, f32.byteLength]).toEqual([320, 960]);
    expect(s16.every((b) => b === 0) && f32.every((b) => b === 0)).toBe(true);
  });

  it('rounds to whole frames (10 ms of 22050 Hz is 221 samples) and rejects negative durations', () => {
    expect(silence({ encoding: 'pcm_s16le', sampleRate: 22050 }, 10).byteLength).toBe(442);
    expect(() => silence({ encoding: 'mulaw', sampleRate: 8000 }, -1)).toThrow(RangeError);
  });

  it('a channel count other than 1 is a RangeError naming it (voxroute is mono)', () => {
    // channels 2 gave 960 bytes for 10 ms at 24 kHz (stereo), 0 an empty array, -1 "Invalid typed array length".
    const withChannels = (channels: unknown) =>
      ({ encoding: 'pcm_s16le', sampleRate: 24000, channels }) as unknown as AudioFormat;
    for (const channels of [2, 0, 1.5, -1]) {
      expect(() => silence(withChannels(channels), 10)).toThrow(
        new RangeError(`silence: format.channels must be 1 (voxroute's audio is mono), got ${channels}`),
      );
    }
    expect(() => silence(withChannels('1'), 10)).toThrow(
      new RangeError("silence: format.channels must be 1 (voxroute's audio is mono), got string"),
    );
    expect(silence(withChannels(1), 10).byteLength).toBe(480);
  });
});

/**
 * ITU-T G.191's reference encoders (`ulaw_compress`, `alaw_compress` in its g711.c), written
 * from the algorithm: a negative sample's magnitude is its one's complement (~x = -x - 1).
 */
function g191MulawEncode(x: number): number {
  const absno = Math.min((x < 0 ? ~x >> 2 : x >> 2) + 33, 0x1fff);
  let segment = 1;
  for (let i = absno >> 6; i !== 0; i >>= 1) segment++;
  const code = ((8 - segment) << 4) | (15 - ((absno >> segment) & 0x0f));
  return x >= 0 ? code | 0x80 : code;
}

function g191AlawEncode(x: number): number {
  let ix = x < 0 ? ~x >> 4 : x >> 4;
  if (ix > 15) {
    let exponent = 1;
    while (ix > 31) {
      ix >>= 1;
      exponent++;
    }
    ix = ix - 16 + (exponent << 4);
  }
  return (x >= 0 ? ix | 0x80 : ix) ^ 0x55;
}

describe('G.711 encoding, bit-exact with ITU-T G.191', () => {
  const inputs = Array.from({ length: 65536 }, (_, i) => i - 32768);

  it('g711-decision-level: mu-law codes all 65,536 inputs as G.191 does (a negative sample on a decision level included)', () => {
    expect(inputs.filter((x) => mulawEncodeSample(x) !== g191MulawEncode(x))).toEqual([]);
    expect([-31612, -1, 0, -32768, 32767].map(mulawEncodeSample)).toEqual([0x01, 0x7f, 0xff, 0x00, 0x80]);
  });

  it('g711-decision-level: A-law codes all 65,536 inputs as G.191 does (a negative sample on a decision level included)', () => {
    expect(inputs.filter((x) => alawEncodeSample(x) !== g191AlawEncode(x))).toEqual([]);
    expect([-31744, -1, 0, -32768, 32767].map(alawEncodeSample)).toEqual([0x2b, 0x55, 0xd5, 0x2a, 0xaa]);
  });

  it('g711-decision-level: the byte codec (its 64 KiB table) gives the same codes as G.191', () => {
    const pcm = new Uint8Array(65536 * 2);
    const view = new DataView(pcm.buffer);
    inputs.forEach((x, i) => {
      view.setInt16(i * 2, x, true);
    });
    const s16: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 8000 };
    const mu = encodeFromFloat32(decodeToFloat32(pcm, s16.encoding), 'mulaw');
    expect(Array.from(mu)).toEqual(inputs.map(g191MulawEncode));
  });
});
