import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WavReader } from '../../src/audio/wav-reader.js';
import { encodeWav, WAV_HEADER_BYTES, wavHeader } from '../../src/audio/wav-writer.js';
import type { AudioEncoding } from '../../src/types/audio.js';
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
