import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WavReader } from '../../src/audio/wav-reader.js';
import { encodeWav, WAV_HEADER_BYTES, wavHeader } from '../../src/audio/wav-writer.js';
import type { AudioEncoding, AudioFormat } from '../../src/types/audio.js';
import { SEEDED } from '../helpers/property-seed.js';
import { firstDifference, fixture } from './helpers.js';
import { join, ramp } from './wav-build.js';

const encodings: AudioEncoding[] = ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'];
const rates = [8000, 16000, 22050, 24000, 44100, 48000];

describe('WAV writer -> reader round trip', () => {
  it('property: encodeWav then WavReader gives back the format and data, for every encoding and rate', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...encodings),
        fc.constantFrom(...rates),
        fc.uint8Array({ maxLength: 64 }),
        (encoding, sampleRate, raw) => {
          const width = encoding === 'pcm_f32le' ? 4 : encoding === 'pcm_s16le' ? 2 : 1;
          const data = raw.subarray(0, raw.byteLength - (raw.byteLength % width));
          const reader = new WavReader();
          const { format, data: out } = reader.push(encodeWav({ encoding, sampleRate }, data));
          expect(format).toEqual({ encoding, sampleRate, channels: 1 });
          expect(Array.from(out)).toEqual(Array.from(data));
          expect(reader.done || data.byteLength === 0).toBe(true);
        },
      ),
      SEEDED,
    );
  });

  it('rewrites the 24 kHz fixture byte for byte (canonical 44-byte header, same data)', () => {
    const original = fixture('jfk-24k-s16le.wav');
    const { format, data } = new WavReader().push(original);
    const rewritten = encodeWav(format!, data);
    expect(rewritten.byteLength).toBe(original.byteLength);
    expect(firstDifference(rewritten, original)).toBe(-1);
  });

  it('a streaming header (unknown length, 0xFFFFFFFF) is read as data to the end of the stream', () => {
    const header = wavHeader({ encoding: 'mulaw', sampleRate: 8000 });
    expect(header.byteLength).toBe(WAV_HEADER_BYTES);
    const reader = new WavReader();
    const first = reader.push(join([header, ramp(10)]));
    const second = reader.push(ramp(5, 10));
    expect(first.format).toEqual({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
    expect([...first.data, ...second.data]).toEqual(Array.from(ramp(15)));
    expect(reader.end()).toEqual({ truncatedBytes: 0 });
  });
});

describe('wavHeader and encodeWav refuse sizes and formats the header cannot state', () => {
  const s16 = { encoding: 'pcm_s16le' as const, sampleRate: 24000 };
  /** A format with `channels` as untyped code may pass it (the type says mono). */
  const withChannels = (channels: number) => ({ ...s16, channels }) as unknown as AudioFormat;
  it('a dataBytes that is negative, fractional or past the 32-bit RIFF size is a RangeError naming it', () => {
    // Written as is, -4 became the size 0xFFFFFFFC (read as "until the end") and 2^33 wrapped to 0.
    expect(() => wavHeader(s16, -4)).toThrow(
      new RangeError('wavHeader: dataBytes must be a whole number from 0 to 4294967258, got -4'),
    );
    expect(() => wavHeader(s16, 2 ** 33)).toThrow(
      new RangeError('wavHeader: dataBytes must be a whole number from 0 to 4294967258, got 8589934592'),
    );
    expect(() => wavHeader(s16, 1.5)).toThrow(RangeError);
    expect(() => wavHeader(s16, Number.NaN)).toThrow(RangeError);
    expect(() => wavHeader(s16, 4294967260)).toThrow(RangeError);
    const largest = new DataView(wavHeader(s16, 4294967258).buffer);
    expect([largest.getUint32(4, true), largest.getUint32(40, true)]).toEqual([0xfffffffe, 4294967258]);
    expect(new DataView(wavHeader(s16, 0).buffer).getUint32(40, true)).toBe(0);
  });

  it("a dataBytes that is not whole frames is a RangeError; odd 8-bit data gets RIFF's pad byte, counted in the RIFF size", () => {
    // Three bytes of s16le gave a header of data size 3: half a sample.
    expect(() => encodeWav(s16, new Uint8Array(3))).toThrow(
      new RangeError(
        'encodeWav: data.byteLength must be a whole number of 2-byte frames (pcm_s16le, 1 channel), got 3',
      ),
    );
    expect(() => wavHeader({ encoding: 'pcm_f32le', sampleRate: 24000 }, 6)).toThrow(
      new RangeError(
        'wavHeader: dataBytes must be a whole number of 4-byte frames (pcm_f32le, 1 channel), got 6',
      ),
    );
    const mulaw = { encoding: 'mulaw' as const, sampleRate: 8000 };
    const file = encodeWav(mulaw, Uint8Array.of(1, 2, 3));
    const view = new DataView(file.buffer);
    expect(file.byteLength).toBe(48);
    expect([view.getUint32(4, true), view.getUint32(40, true)]).toEqual([40, 3]);
    expect([...file.subarray(44)]).toEqual([1, 2, 3, 0]);
    const even = encodeWav(mulaw, Uint8Array.of(1, 2));
    expect([even.byteLength, new DataView(even.buffer).getUint32(4, true)]).toEqual([46, 38]);
  });

  it('a format that is not an object is a TypeError naming it (wavHeader and encodeWav)', () => {
    // It was "Cannot read properties of null (reading 'channels')".
    const message =
      'wavHeader(format, dataBytes?): format must be an AudioFormat ({ encoding, sampleRate }), got null';
    expect(() => wavHeader(null as never, 10)).toThrow(new TypeError(message));
    expect(() => encodeWav(null as never, new Uint8Array(2))).toThrow(
      new TypeError(
        'encodeWav(format, data): format must be an AudioFormat ({ encoding, sampleRate }), got null',
      ),
    );
    expect(() => wavHeader('pcm_s16le' as never)).toThrow(
      new TypeError(
        'wavHeader(format, dataBytes?): format must be an AudioFormat ({ encoding, sampleRate }), got string',
      ),
    );
  });

  it('argument order: encodeWav checks format (its channels, encoding, sampleRate) before data, as the signature reads, and names itself', () => {
    // encodeWav({}) named `data` (the second argument) while `format` (the first) had no
    // encoding; a format's errors said `wavHeader` and an unknown encoding named no field.
    expect(() => (encodeWav as (f: unknown) => Uint8Array)({})).toThrow(
      new RangeError(
        'encodeWav: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got undefined',
      ),
    );
    expect(() => encodeWav({ encoding: 'pcm_s16le' } as never, undefined as never)).toThrow(
      new RangeError(
        'encodeWav: format.sampleRate must be a whole number of Hz from 1 to 2147483647, got undefined',
      ),
    );
    expect(() =>
      encodeWav({ encoding: 'opus', sampleRate: 8000, channels: 2 } as never, null as never),
    ).toThrow(new RangeError("encodeWav: format.channels must be 1 (voxroute's audio is mono), got 2"));
    expect(() => encodeWav({ encoding: 'opus', sampleRate: 8000 } as never, null as never)).toThrow(
      new RangeError(
        "encodeWav: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got 'opus'",
      ),
    );
    expect(() => encodeWav(s16, undefined as never)).toThrow(
      new TypeError('encodeWav(format, data): data must be a Uint8Array of audio bytes, got undefined'),
    );
    expect(() => wavHeader({ encoding: 7 } as never, -1)).toThrow(
      new RangeError(
        'wavHeader: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got number',
      ),
    );
  });

  it('encodeWav: data that is not a Uint8Array is a TypeError naming it', () => {
    // It was "Cannot read properties of null (reading 'byteLength')" for null, and "offset is
    // out of bounds" (a RangeError of the copy) for an array or a string.
    const named = (shape: string) =>
      new TypeError(`encodeWav(format, data): data must be a Uint8Array of audio bytes, got ${shape}`);
    expect(() => encodeWav(s16, null as never)).toThrow(named('null'));
    expect(() => encodeWav(s16, [0, 0] as never)).toThrow(named('an array'));
    expect(() => encodeWav(s16, 'abcd' as never)).toThrow(named('string'));
    expect(() => encodeWav(s16, new ArrayBuffer(2) as never)).toThrow(named('an object (ArrayBuffer)'));
    // A Buffer is a Uint8Array: taken as it is.
    expect(encodeWav(s16, Buffer.alloc(2)).byteLength).toBe(46);
    // So is one of another realm (a vm context, as jsdom test environments make).
    expect(encodeWav(s16, runInNewContext('new Uint8Array(2)')).byteLength).toBe(46);
  });

  it('a sampleRate that is not a whole number above 0 is a RangeError naming it', () => {
    // 22050.5 Hz wrote the rate 22050 beside the byte rate 44101: a header at odds with itself.
    expect(() => wavHeader({ ...s16, sampleRate: 22050.5 })).toThrow(
      new RangeError(
        'wavHeader: format.sampleRate must be a whole number of Hz from 1 to 2147483647, got 22050.5',
      ),
    );
    expect(() => wavHeader({ ...s16, sampleRate: 0 }, 4)).toThrow(RangeError);
    expect(() => wavHeader({ ...s16, sampleRate: Number.NaN }, 4)).toThrow(RangeError);
    expect(() => encodeWav({ ...s16, sampleRate: -8000 }, new Uint8Array(4))).toThrow(RangeError);
  });

  it('a channels other than 1 is a RangeError naming it: the type, readWav and the router are mono', () => {
    // channels 2 wrote a stereo header (block align 4) that readWav then refused.
    for (const channels of [2, 0, 1.5]) {
      expect(() => wavHeader(withChannels(channels), 8)).toThrow(
        new RangeError(`wavHeader: format.channels must be 1 (voxroute's audio is mono), got ${channels}`),
      );
      expect(() => encodeWav(withChannels(channels), new Uint8Array(8))).toThrow(
        new RangeError(`encodeWav: format.channels must be 1 (voxroute's audio is mono), got ${channels}`),
      );
    }
    const mono = new DataView(wavHeader(withChannels(1), 8).buffer);
    expect([mono.getUint16(22, true), mono.getUint32(28, true), mono.getUint16(32, true)]).toEqual([
      1, 48000, 2,
    ]);
  });
});
