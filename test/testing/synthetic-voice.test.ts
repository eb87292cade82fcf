import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { syntheticVoice, syntheticVoiceBytes } from '../../src/testing/index.js';
import { expectSameBytes } from './helpers.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Fundamental frequency (Hz) of `samples` by autocorrelation over lags for 60-400 Hz. */
function pitchHz(samples: Int16Array, sampleRate: number): number {
  let bestLag = 0;
  let best = -Infinity;
  for (let lag = Math.floor(sampleRate / 400); lag <= Math.ceil(sampleRate / 60); lag++) {
    let sum = 0;
    for (let i = 0; i + lag < samples.length; i++) sum += samples[i]! * samples[i + lag]!;
    if (sum > best) {
      best = sum;
      bestLag = lag;
    }
  }
  return sampleRate / bestLag;
}

describe('syntheticVoice', () => {
  it('has round(durationMs x sampleRate / 1000) samples', () => {
    expect(syntheticVoice({ durationMs: 1000, sampleRate: 24000 }).length).toBe(24000);
    expect(syntheticVoice({ durationMs: 10.5, sampleRate: 16000 }).length).toBe(168);
    expect(syntheticVoice({ durationMs: 0, sampleRate: 8000 }).length).toBe(0);
  });

  it('is the same bytes on every run and machine (pinned digest)', () => {
    const a = syntheticVoiceBytes({ durationMs: 1000, sampleRate: 16000 });
    expect(sha256(a)).toBe('492397c7d02066a0f6fccc2a65f1499486a81b360a32201cc66ae62fae2756eb');
    expect(sha256(syntheticVoiceBytes({ durationMs: 1000, sampleRate: 16000, seed: 7 }))).toBe(
      '5cd637a08e266a335b2d3bbf7af033c97c9b1766bd0680cbab85ec7e9b920f7a',
    );
    expectSameBytes(syntheticVoiceBytes({ durationMs: 1000, sampleRate: 16000 }), a);
  });

  it('a shorter signal is an exact prefix of a longer one', () => {
    const long = syntheticVoice({ durationMs: 900, sampleRate: 24000, seed: 3 });
    const short = syntheticVoice({ durationMs: 300, sampleRate: 24000, seed: 3 });
    expectSameBytes(new Uint8Array(short.buffer), new Uint8Array(long.buffer, 0, short.byteLength));
  });

  it('different seeds give different voices', () => {
    const a = syntheticVoice({ durationMs: 200, sampleRate: 16000, seed: 1 });
    const b = syntheticVoice({ durationMs: 200, sampleRate: 16000, seed: 2 });
    expect(a).not.toEqual(b);
  });

  it('sounds like speech: voice-range pitch, word gaps of silence, level under half scale', () => {
    const sampleRate = 16000;
    const s = syntheticVoice({ durationMs: 3000, sampleRate });
    let peak = 0;
    let energy = 0;
    for (const v of s) {
      peak = Math.max(peak, Math.abs(v));
      energy += v * v;
    }
    const rms = Math.sqrt(energy / s.length);
    expect(peak).toBeLessThanOrEqual(16384);
    expect(peak).toBeGreaterThan(8000);
    expect(rms).toBeGreaterThan(2000);
    // silent gaps between "words": runs of >= 150 ms of exact zeros, at least two in 3 s
    const gaps: number[] = [];
    let run = 0;
    for (const v of s) {
      if (v === 0) run++;
      else {
        if (run >= 0.15 * sampleRate) gaps.push(run);
        run = 0;
      }
    }
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    // the loudest 40 ms window has a fundamental between 85 and 210 Hz
    const window = 0.04 * sampleRate;
    let loudest = 0;
    let loudestEnergy = 0;
    for (let start = 0; start + window < s.length; start += window) {
      let e = 0;
      for (let i = start; i < start + window; i++) e += s[i]! * s[i]!;
      if (e > loudestEnergy) {
        loudestEnergy = e;
        loudest = start;
      }
    }
    const f0 = pitchHz(s.subarray(loudest, loudest + window), sampleRate);
    expect(f0).toBeGreaterThan(85);
    expect(f0).toBeLessThan(210);
  });

  it('bytes are the samples in little-endian order', () => {
    const samples = syntheticVoice({ durationMs: 20, sampleRate: 8000 });
    const bytes = syntheticVoiceBytes({ durationMs: 20, sampleRate: 8000 });
    expect(bytes.byteLength).toBe(samples.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) expect(view.getInt16(i * 2, true)).toBe(samples[i]);
  });

  it('rejects a negative duration and a non-positive sample rate with RangeError', () => {
    expect(() => syntheticVoice({ durationMs: -1, sampleRate: 8000 })).toThrow(RangeError);
    expect(() => syntheticVoice({ durationMs: 10, sampleRate: 0 })).toThrow(RangeError);
  });
});
