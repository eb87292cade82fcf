import { describe, expect, it } from 'vitest';
import {
  bytesPerFrame,
  bytesPerSample,
  durationMs,
  formatLabel,
  sameFormat,
} from '../../src/audio/format.js';

describe('format helpers', () => {
  it('sizes samples and frames: 2, 4, 1, 1 bytes', () => {
    expect((['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'] as const).map(bytesPerSample)).toEqual([2, 4, 1, 1]);
    expect(bytesPerFrame({ encoding: 'pcm_f32le', sampleRate: 48000 })).toBe(4);
  });

  it('throws a RangeError naming an encoding it does not know (the size is not a guess)', () => {
    expect(() => bytesPerSample('opus' as never)).toThrow(
      new RangeError("audio encoding 'opus' is not one of pcm_s16le, pcm_f32le, mulaw, alaw"),
    );
  });

  it('durationMs: an unknown encoding is a RangeError naming durationMs and format.encoding', () => {
    // It was "audio encoding 'mp3' is not one of ...": neither the function nor the field named.
    expect(() => durationMs({ encoding: 'mp3', sampleRate: 8000 } as never, 100)).toThrow(
      new RangeError(
        "durationMs: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got 'mp3'",
      ),
    );
    expect(() => durationMs({ sampleRate: 8000 } as never, 100)).toThrow(
      new RangeError(
        'durationMs: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got undefined',
      ),
    );
  });

  it('durationMs: 4800 bytes of s16 at 24 kHz is 100 ms; 800 bytes of mu-law at 8 kHz is 100 ms', () => {
    expect(durationMs({ encoding: 'pcm_s16le', sampleRate: 24000 }, 4800)).toBe(100);
    expect(durationMs({ encoding: 'mulaw', sampleRate: 8000 }, 800)).toBe(100);
  });

  it('durationMs: a negative or non-finite byteLength, or a sample rate not above 0, is a RangeError naming it', () => {
    const s16 = { encoding: 'pcm_s16le' as const, sampleRate: 24000 };
    // It returned -2.083 ms for -100 bytes and Infinity ms at 0 Hz.
    expect(() => durationMs(s16, -100)).toThrow(
      new RangeError('durationMs: byteLength must be a number of bytes >= 0, got -100'),
    );
    expect(() => durationMs(s16, Number.NaN)).toThrow(RangeError);
    expect(() => durationMs({ ...s16, sampleRate: 0 }, 100)).toThrow(
      new RangeError('durationMs: format.sampleRate must be a number of Hz above 0, got 0'),
    );
    expect(() => durationMs({ ...s16, sampleRate: -8000 }, 100)).toThrow(RangeError);
    expect(durationMs(s16, 0)).toBe(0);
  });

  it('durationMs: a channel count other than 1, or a format that is not an object, is named', () => {
    const s16 = { encoding: 'pcm_s16le' as const, sampleRate: 24000 };
    // channels 2 gave half the duration (stereo, which the type and the router refuse), 0
    // Infinity ms, 0.5 twice the duration; a null format "Cannot read properties of null".
    for (const channels of [2, 0, 0.5, -1]) {
      expect(() => durationMs({ ...s16, channels } as never, 4800)).toThrow(
        new RangeError(`durationMs: format.channels must be 1 (voxroute's audio is mono), got ${channels}`),
      );
    }
    expect(() => durationMs({ ...s16, channels: '2' } as never, 4800)).toThrow(
      new RangeError("durationMs: format.channels must be 1 (voxroute's audio is mono), got string"),
    );
    expect(() => durationMs(null as never, 4800)).toThrow(
      new TypeError(
        'durationMs(format, byteLength): format must be an AudioFormat ({ encoding, sampleRate }), got null',
      ),
    );
    expect(durationMs({ ...s16, channels: 1 }, 4800)).toBe(100);
  });

  it('sameFormat treats a missing channel count as 1; formatLabel names encoding and rate', () => {
    expect(
      sameFormat(
        { encoding: 'mulaw', sampleRate: 8000 },
        { encoding: 'mulaw', sampleRate: 8000, channels: 1 },
      ),
    ).toBe(true);
    expect(sameFormat({ encoding: 'mulaw', sampleRate: 8000 }, { encoding: 'alaw', sampleRate: 8000 })).toBe(
      false,
    );
    expect(
      sameFormat({ encoding: 'mulaw', sampleRate: 8000 }, { encoding: 'mulaw', sampleRate: 16000 }),
    ).toBe(false);
    expect(formatLabel({ encoding: 'pcm_s16le', sampleRate: 24000 })).toBe('pcm_s16le@24000Hz');
  });
});
