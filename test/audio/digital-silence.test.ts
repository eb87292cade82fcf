import { describe, expect, it } from 'vitest';
import { isDigitalSilence, silence } from '../../src/audio/index.js';
import type { AudioFormat } from '../../src/types/audio.js';

const fmt = (encoding: AudioFormat['encoding']): AudioFormat => ({ encoding, sampleRate: 8000, channels: 1 });

describe('isDigitalSilence', () => {
  it('is true for silence() of every encoding, and for the empty array', () => {
    for (const e of ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'] as const) {
      expect([e, isDigitalSilence(fmt(e), silence(fmt(e), 20))]).toEqual([e, true]);
      expect(isDigitalSilence(fmt(e), new Uint8Array(0))).toBe(true);
    }
  });

  it('takes both zero codes of G.711 and rejects any other byte', () => {
    expect(isDigitalSilence(fmt('mulaw'), Uint8Array.of(0xff, 0x7f, 0xff))).toBe(true);
    expect(isDigitalSilence(fmt('alaw'), Uint8Array.of(0xd5, 0x55))).toBe(true);
    expect(isDigitalSilence(fmt('mulaw'), Uint8Array.of(0xff, 0x00))).toBe(false);
    expect(isDigitalSilence(fmt('alaw'), Uint8Array.of(0xd5, 0x00))).toBe(false);
    expect(isDigitalSilence(fmt('pcm_s16le'), Uint8Array.of(0, 0, 1, 0))).toBe(false);
    // Mu-law silence is not PCM silence.
    expect(isDigitalSilence(fmt('pcm_s16le'), Uint8Array.of(0xff, 0xff))).toBe(false);
  });
});

describe('silence', () => {
  it('throws a RangeError naming an encoding it does not know, or a bad sample rate', () => {
    const bad =
      (format: unknown, ms = 10) =>
      () =>
        silence(format as AudioFormat, ms);
    expect(bad({ encoding: 'mp3', sampleRate: 8000 })).toThrow(
      new RangeError("silence: format.encoding 'mp3' is not one of pcm_s16le, pcm_f32le, mulaw, alaw"),
    );
    expect(bad({ encoding: 'mp3', sampleRate: 8000 })).toThrow(RangeError);
    expect(bad({ encoding: 'mulaw', sampleRate: 0 })).toThrow(
      new RangeError('silence: format.sampleRate must be a whole number of Hz above 0, got 0'),
    );
    expect(bad({ encoding: 'mulaw', sampleRate: 8000 }, -1)).toThrow(
      new RangeError('silence: ms must be >= 0, got -1'),
    );
  });

  it('throws a TypeError showing both arguments when they are swapped or of the wrong type', () => {
    const call = (format: unknown, ms: unknown) => () => silence(format as AudioFormat, ms as number);
    const swapped = call(500, { encoding: 'mulaw', sampleRate: 8000 });
    expect(swapped).toThrow(TypeError);
    expect(swapped).toThrow(
      new TypeError(
        'silence(format, ms): expected an AudioFormat ({ encoding, sampleRate }) and a number of ms, got (500, {"encoding":"mulaw","sampleRate":8000})',
      ),
    );
    expect(call({ encoding: 'mulaw', sampleRate: 8000 }, '100')).toThrow(
      new TypeError(
        `silence(format, ms): expected an AudioFormat ({ encoding, sampleRate }) and a number of ms, got ({"encoding":"mulaw","sampleRate":8000}, '100')`,
      ),
    );
    expect(call(null, 10)).toThrow(TypeError);
  });
});
