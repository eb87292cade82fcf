import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Resampler } from '../../src/audio/resampler.js';
import { sine } from './helpers.js';

const RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;

/** Output of resampling `input` cut at `sizes` (the rest as one last piece), flushed. */
function run(resampler: Resampler, input: Float32Array, sizes: readonly number[]): Float32Array {
  const parts: Float32Array[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= input.length) break;
    parts.push(resampler.process(input.subarray(at, Math.min(at + size, input.length))));
    at += size;
  }
  if (at < input.length) parts.push(resampler.process(input.subarray(at)));
  parts.push(resampler.flush());
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

function maxStep(a: Float32Array, from = 0, to = a.length): number {
  let max = 0;
  for (let i = from + 1; i < to; i++) max = Math.max(max, Math.abs(a[i]! - a[i - 1]!));
  return max;
}

describe('Resampler', () => {
  it('gives exactly round(N x out / in) samples after flush for every pair of supported rates', async () => {
    const lengths: string[] = [];
    const expected: string[] = [];
    for (const from of RATES) {
      for (const to of RATES) {
        if (from === to) continue;
        const resampler = await Resampler.create(from, to);
        const n = Math.round(from * 0.1) + 7; // 100 ms and a bit, not a round number of output samples
        const out = run(resampler, sine(440, from, n, 0.5), [97, 1000, 3]);
        resampler.close();
        lengths.push(`${from}->${to}:${out.length}`);
        expected.push(`${from}->${to}:${Math.round((n * to) / from)}`);
      }
    }
    expect(lengths).toEqual(expected);
  });

  it('streams a 440 Hz sine in random small chunks with the same output as in one piece, without clicks', async () => {
    const input = sine(440, 24000, 24000, 0.8); // 1 s
    const whole = await Resampler.create(24000, 8000);
    const reference = run(whole, input, [input.length]);
    whole.close();
    expect(reference.length).toBe(8000);

    // A 440 Hz sine of peak 0.8 at 8 kHz moves at most 0.8 x 2 sin(pi x 440 / 8000) = 0.276 a sample.
    const allowedStep = 0.8 * 2 * Math.sin((Math.PI * 440) / 8000);
    expect(maxStep(reference, 50, reference.length - 50)).toBeLessThan(allowedStep * 1.01);

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 200 }),
        async (sizes) => {
          const chunked = await Resampler.create(24000, 8000);
          const out = run(chunked, input, sizes);
          chunked.close();
          expect(out.length).toBe(reference.length);
          expect(maxAbsDiff(out, reference)).toBeLessThan(1e-6);
          expect(maxStep(out, 50, out.length - 50)).toBeLessThan(allowedStep * 1.01);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps the level and phase of a sine (24 kHz -> 16 kHz within 1% of the ideal 16 kHz sine)', async () => {
    const resampler = await Resampler.create(24000, 16000);
    const out = run(
      resampler,
      sine(440, 24000, 4800, 0.5),
      [480, 480, 480, 480, 480, 480, 480, 480, 480, 480],
    );
    resampler.close();
    const ideal = sine(440, 16000, 3200, 0.5);
    expect(out.length).toBe(3200);
    // Away from the edges (where the filter sees silence before and after the signal).
    expect(maxAbsDiff(out.subarray(100, 3100), ideal.subarray(100, 3100))).toBeLessThan(0.005);
  });

  it('flush() resets the state: the next stream resamples as if on a fresh converter', async () => {
    const resampler = await Resampler.create(16000, 48000);
    const a = run(resampler, sine(300, 16000, 1600, 0.9), [333]);
    const b = run(resampler, sine(700, 16000, 1600, 0.3), [100, 200]);
    resampler.close();
    const fresh = await Resampler.create(16000, 48000);
    const bFresh = run(fresh, sine(700, 16000, 1600, 0.3), [1600]);
    fresh.close();
    expect(a.length).toBe(4800);
    expect(maxAbsDiff(b, bFresh)).toBeLessThan(1e-6);
  });

  it('rejects bad rates with RangeError and use after close with Error', async () => {
    await expect(Resampler.create(0, 8000)).rejects.toThrow(RangeError);
    await expect(Resampler.create(8000, 8000)).rejects.toThrow(/rates are equal/);
    await expect(Resampler.create(16000, 200000)).rejects.toThrow(/1 to 192000/);
    const resampler = await Resampler.create(8000, 16000);
    resampler.close();
    resampler.close();
    expect(() => resampler.process(new Float32Array(10))).toThrow('Resampler is closed');
  });
});
