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

  it('durationMs: 4800 bytes of s16 at 24 kHz is 100 ms; 800 bytes of mu-law at 8 kHz is 100 ms', () => {
    expect(durationMs({ encoding: 'pcm_s16le', sampleRate: 24000 }, 4800)).toBe(100);
    expect(durationMs({ encoding: 'mulaw', sampleRate: 8000 }, 800)).toBe(100);
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
