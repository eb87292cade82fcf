import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import {
  syntheticAudio,
  syntheticVoice,
  syntheticVoiceBytes,
  syntheticWav,
} from '../../src/testing/index.js';
import { syntheticAudioSampler } from '../../src/testing/synthetic-audio.js';
import type { AudioEncoding } from '../../src/types/audio.js';
import { expectSameBytes } from './helpers.js';

describe('syntheticAudio', () => {
  it('pcm_s16le is syntheticVoiceBytes at the format rate', () => {
    const bytes = syntheticAudio({ durationMs: 250, format: { encoding: 'pcm_s16le', sampleRate: 22050 } });
    expectSameBytes(bytes, syntheticVoiceBytes({ durationMs: 250, sampleRate: 22050 }));
    expect(bytes.byteLength).toBe(Math.round(0.25 * 22050) * 2);
  });

  it('pcm_f32le holds s / 32768 for each s16 sample, little-endian', () => {
    const samples = syntheticVoice({ durationMs: 50, sampleRate: 16000, seed: 4 });
    const bytes = syntheticAudio({
      durationMs: 50,
      format: { encoding: 'pcm_f32le', sampleRate: 16000 },
      seed: 4,
    });
    expect(bytes.byteLength).toBe(samples.length * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) expect(view.getFloat32(i * 4, true)).toBe(samples[i]! / 32768);
  });

  it('mulaw and alaw are one G.711 byte a sample that decode back within the codec step', () => {
    const samples = syntheticVoice({ durationMs: 200, sampleRate: 8000 });
    for (const encoding of ['mulaw', 'alaw'] as const) {
      const bytes = syntheticAudio({ durationMs: 200, format: { encoding, sampleRate: 8000 } });
      expect(bytes.byteLength).toBe(1600);
      const decoded = alawmulaw[encoding].decode(bytes);
      for (let i = 0; i < samples.length; i++) {
        // G.711 quantization step is at most 1/16 of the magnitude (plus a small floor)
        expect(Math.abs(decoded[i]! - samples[i]!)).toBeLessThanOrEqual(Math.abs(samples[i]!) / 16 + 16);
      }
    }
  });

  it('mu-law silence is 0xFF, not 0x00', () => {
    const bytes = syntheticAudio({ durationMs: 2, format: { encoding: 'mulaw', sampleRate: 8000 } });
    // the first samples of the envelope round to 0
    expect(bytes[0]).toBe(0xff);
  });

  it('rejects more than one channel', () => {
    expect(() =>
      syntheticAudio({
        durationMs: 10,
        format: { encoding: 'pcm_s16le', sampleRate: 8000, channels: 2 as 1 },
      }),
    ).toThrow(RangeError);
  });
});

describe('syntheticWav', () => {
  it('is a 44-byte canonical header with exact sizes, then the data', () => {
    const format = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
    const file = syntheticWav({ durationMs: 1000, format });
    expect(file.byteLength).toBe(44 + 32000);
    const view = new DataView(file.buffer);
    expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 32000);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16000);
    expect(view.getUint32(40, true)).toBe(32000);
    expectSameBytes(file.subarray(44), syntheticAudio({ durationMs: 1000, format }));
  });
});

describe('syntheticAudioSampler (internal: audio made as text arrives)', () => {
  it('pieces of uneven sizes join to the bytes of one syntheticAudio, in every encoding', () => {
    const encodings: AudioEncoding[] = ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'];
    for (const encoding of encodings) {
      const format = { encoding, sampleRate: 22050 };
      const sampler = syntheticAudioSampler(format, 7);
      const pieces = [0, 1, 997, 3, 4410, 0, 2613].map((count) => sampler.next(count));
      expect(sampler.generated).toBe(8024);
      expectSameBytes(
        Buffer.concat(pieces),
        syntheticAudio({ durationMs: (8024 / 22050) * 1000, format, seed: 7 }),
      );
    }
  });

  it('refuses stereo and a non-positive sample rate with RangeError', () => {
    expect(() =>
      syntheticAudioSampler({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 as 1 }),
    ).toThrow(new RangeError('syntheticAudio makes mono audio only'));
    expect(() => syntheticAudioSampler({ encoding: 'pcm_s16le', sampleRate: 0 })).toThrow(
      new RangeError('sampleRate must be > 0 Hz, got 0'),
    );
  });
});

describe('syntheticWav and syntheticAudio name a missing format', () => {
  it('take { durationMs, sampleRate } as PCM s16le at that rate, the same bytes as with format', () => {
    const short = syntheticWav({ durationMs: 500, sampleRate: 16000 });
    expect(short.byteLength).toBe(44 + 16000);
    expect(
      Buffer.from(short).equals(
        Buffer.from(syntheticWav({ durationMs: 500, format: { encoding: 'pcm_s16le', sampleRate: 16000 } })),
      ),
    ).toBe(true);
    expect(syntheticAudio({ durationMs: 10, sampleRate: 8000 }).byteLength).toBe(160);
  });

  it('throw a TypeError naming format when neither format nor sampleRate is given, or when they disagree', () => {
    expect(() => syntheticWav({ durationMs: 500 })).toThrow(
      new TypeError(
        "syntheticWav: options.format is required (an AudioFormat such as { encoding: 'pcm_s16le', sampleRate: 16000 }), or give options.sampleRate for PCM s16le",
      ),
    );
    expect(() =>
      syntheticAudio({ durationMs: 5, sampleRate: 8000, format: { encoding: 'mulaw', sampleRate: 16000 } }),
    ).toThrow(
      new TypeError(
        'syntheticAudio: options.sampleRate (8000) differs from options.format.sampleRate (16000); give one',
      ),
    );
  });
});
