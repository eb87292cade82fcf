import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeToFloat32, encodeFromFloat32 } from '../../src/audio/pcm-codec.js';
import { Resampler, type ResamplerQuality } from '../../src/audio/resampler.js';
import { loadSpeex } from '../../src/audio/speex-wasm.js';
import { SEEDED } from '../helpers/property-seed.js';
import { sine } from './helpers.js';

const RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;

/** Output of resampling `input` cut at `sizes` (cycled until the input is used up), flushed. */
function run(resampler: Resampler, input: Float32Array, sizes: readonly number[]): Float32Array {
  const parts: Float32Array[] = [];
  let at = 0;
  for (let i = 0; at < input.length; i++) {
    const size = sizes[i % sizes.length]!;
    parts.push(resampler.process(input.subarray(at, Math.min(at + size, input.length))));
    at += size;
  }
  parts.push(resampler.flush());
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

async function resample(
  from: number,
  to: number,
  input: Float32Array,
  sizes: readonly number[] = [input.length],
) {
  const resampler = await Resampler.create(from, to);
  try {
    return run(resampler, input, sizes);
  } finally {
    resampler.close();
  }
}

/** The bytes of `samples`, to compare outputs bit for bit. */
function bits(samples: Float32Array): Buffer {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
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

function rms(a: Float32Array, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i]! ** 2;
  return Math.sqrt(s / (to - from));
}

/** Logarithmic sweep from f0 to f1 Hz over `seconds` at `rate` Hz, peak `amplitude`. */
function sweep(f0: number, f1: number, seconds: number, rate: number, amplitude: number): Float32Array {
  const k = Math.log(f1 / f0) / seconds;
  return Float32Array.from(
    { length: Math.round(seconds * rate) },
    (_, i) => amplitude * Math.sin(((2 * Math.PI * f0) / k) * (Math.exp((k * i) / rate) - 1)),
  );
}

function snrDb(want: Float32Array, got: Float32Array, from: number, to: number): number {
  let s = 0;
  let e = 0;
  for (let i = from; i < to; i++) {
    s += want[i]! ** 2;
    e += (want[i]! - got[i]!) ** 2;
  }
  return 10 * Math.log10(s / e);
}

describe('Resampler', () => {
  it('gives exactly round(N x out / in) samples after flush for every pair of supported rates', async () => {
    const lengths: string[] = [];
    const expected: string[] = [];
    for (const from of RATES) {
      for (const to of RATES) {
        if (from === to) continue;
        const n = Math.round(from * 0.1) + 7; // 100 ms and a bit, not a round number of output samples
        const out = await resample(from, to, sine(440, from, n, 0.5), [97, 1000, 3]);
        lengths.push(`${from}->${to}:${out.length}`);
        expected.push(`${from}->${to}:${Math.round((n * to) / from)}`);
      }
    }
    expect(lengths).toEqual(expected);
  });

  it('24 kHz -> 16 kHz: N input samples give round(2N/3) outputs, bit-identical whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 30 }),
        async (n, sizes) => {
          const input = sweep(50, 11000, n / 24000 || 1, 24000, 0.7).subarray(0, n);
          const whole = await resample(24000, 16000, input);
          const cut = await resample(24000, 16000, input, sizes);
          expect(whole.length).toBe(Math.round((2 * n) / 3));
          expect(bits(cut).equals(bits(whole))).toBe(true);
        },
      ),
      { ...SEEDED, numRuns: 60 },
    );
  });

  it('streams a 440 Hz sine in random small chunks with the same output as in one piece, without clicks', async () => {
    const input = sine(440, 24000, 24000, 0.8); // 1 s
    const reference = await resample(24000, 8000, input);
    expect(reference.length).toBe(8000);

    // A 440 Hz sine of peak 0.8 at 8 kHz moves at most 0.8 x 2 sin(pi x 440 / 8000) = 0.276 a sample.
    const allowedStep = 0.8 * 2 * Math.sin((Math.PI * 440) / 8000);
    expect(maxStep(reference, 50, reference.length - 50)).toBeLessThan(allowedStep * 1.001);

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 200 }),
        async (sizes) => {
          const out = await resample(24000, 8000, input, sizes);
          expect(bits(out).equals(bits(reference))).toBe(true);
        },
      ),
      { ...SEEDED, numRuns: 25 },
    );
  });

  it('keeps the level and phase of a sine (24 kHz -> 16 kHz within 0.1% of the ideal 16 kHz sine)', async () => {
    const out = await resample(24000, 16000, sine(440, 24000, 4800, 0.5), [480]);
    const ideal = sine(440, 16000, 3200, 0.5);
    expect(out.length).toBe(3200);
    // Away from the edges (where the filter sees silence before and after the signal).
    expect(maxAbsDiff(out.subarray(100, 3100), ideal.subarray(100, 3100))).toBeLessThan(0.0005);
  });

  it('impulse response (48 kHz -> 16 kHz): centred on the impulse, symmetric, unit DC gain, known values', async () => {
    const impulse = new Float32Array(6000);
    impulse[3000] = 1; // input time 3000 = output time 1000
    const out = await resample(48000, 16000, impulse);
    expect(out.length).toBe(2000);
    let peak = 0;
    for (let i = 0; i < out.length; i++) if (out[i]! > out[peak]!) peak = i;
    expect(peak).toBe(1000);
    // The filter spans 48 outputs (976..1023): symmetric but for its one extra tap on the left.
    for (let d = 1; d < 24; d++) expect(out[1000 + d]).toBeCloseTo(out[1000 - d]!, 6);
    // An impulse of area 1 at 48 kHz has area 1 at 16 kHz too: the samples sum to 16000/48000.
    expect(out.reduce((s, v) => s + v, 0)).toBeCloseTo(1 / 3, 4);
    // Zero outside the filter's span.
    expect(Array.from(out.subarray(0, 976)).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.subarray(1024)).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.subarray(1000, 1004), (v) => Number(v.toFixed(6)))).toEqual(GOLDEN_48K_16K);
  });

  it('passes DC at its level: a constant 0.5 comes out at 0.5 (within 2e-5) once the filter is full', async () => {
    const out = await resample(24000, 16000, new Float32Array(4800).fill(0.5));
    expect(maxAbsDiff(out.subarray(100, 3100), new Float32Array(3000).fill(0.5))).toBeLessThan(2e-5);
  });

  it('quality floors, measured exactly in bench/resampler.ts: sweep SNR >= 93 dB, aliases <= -85 dB', async () => {
    const out = await resample(24000, 16000, sweep(100, 6400, 1, 24000, 0.5), [480]);
    expect(snrDb(sweep(100, 6400, 1, 16000, 0.5), out, 1600, 14400)).toBeGreaterThan(93); // measured 96.3
    for (const hz of [8400, 9500, 11500]) {
      // All of a tone above the new Nyquist (8 kHz) is alias: its output should be (nearly) silent.
      const alias = await resample(24000, 16000, sine(hz, 24000, 7200, 0.5), [480]);
      expect(20 * Math.log10(rms(alias, 800, 4000) / (0.5 / Math.SQRT2))).toBeLessThan(-85); // measured <= -88
    }
  });

  it('flush() resets the state: the next stream resamples as if on a fresh converter', async () => {
    const resampler = await Resampler.create(16000, 48000);
    const a = run(resampler, sine(300, 16000, 1600, 0.9), [333]);
    const b = run(resampler, sine(700, 16000, 1600, 0.3), [100, 200]);
    resampler.close();
    const bFresh = await resample(16000, 48000, sine(700, 16000, 1600, 0.3));
    expect(a.length).toBe(4800);
    expect(bits(b).equals(bits(bFresh))).toBe(true);
  });

  it('every quality ends with the exact length; flush() of an empty stream returns nothing', async () => {
    const qualities: ResamplerQuality[] = [
      'sinc-best',
      'sinc-medium',
      'sinc-fastest',
      'linear',
      'zero-order-hold',
    ];
    const lengths: number[] = [];
    for (const quality of qualities) {
      const resampler = await Resampler.create(24000, 8000, { quality });
      expect(resampler.quality).toBe(quality);
      lengths.push(run(resampler, sine(440, 24000, 2401, 0.5), [2401]).length);
      expect(resampler.flush().length).toBe(0);
      resampler.close();
    }
    expect(lengths).toEqual([800, 800, 800, 800, 800]);
  });

  it('close() frees the state in the WebAssembly heap: 500 resamplers created and closed leave it as it was', async () => {
    const { module } = await loadSpeex();
    (await Resampler.create(24000, 16000)).close();
    // The allocator hands out heap in order: a probe after the loop lands where one before it did
    // unless the loop kept memory (500 states not freed would hold about 1.5 MB).
    const before = module._malloc(16);
    for (let i = 0; i < 500; i++) {
      const resampler = await Resampler.create(24000, i % 2 === 0 ? 16000 : 8000);
      resampler.process(new Float32Array(480));
      resampler.close();
    }
    expect(module._malloc(16) - before).toBeLessThan(4096);
  });

  it.each([
    [24000, 16000, 'pcm_s16le', 'pcm_s16le'],
    [24000, 8000, 'pcm_s16le', 'mulaw'],
    [8000, 48000, 'mulaw', 'pcm_s16le'],
    [16000, 44100, 'pcm_f32le', 'alaw'],
  ] as const)(
    'processEncoded %i -> %i Hz (%s -> %s) gives the bytes of decode, process, encode, chunk by chunk',
    async (from, to, inEnc, outEnc) => {
      // 20 ms chunks, one odd size, and one chunk larger than the shared I/O area (8192 samples).
      const width = inEnc === 'pcm_s16le' ? 2 : inEnc === 'pcm_f32le' ? 4 : 1;
      const sizes = [from / 50, 7, 9000, from / 50];
      const input = encodeFromFloat32(
        sine(
          440,
          from,
          sizes.reduce((a, b) => a + b, 0),
          0.6,
        ),
        inEnc,
      );
      const direct = await Resampler.create(from, to);
      const viaFloats = await Resampler.create(from, to);
      let at = 0;
      for (const size of sizes) {
        const piece = input.subarray(at * width, (at + size) * width);
        at += size;
        const expected = encodeFromFloat32(viaFloats.process(decodeToFloat32(piece, inEnc)), outEnc);
        expect(direct.processEncoded(piece, inEnc, outEnc)).toEqual(expected);
      }
      // The held-back tail is the same too: both count the same samples in and out.
      expect(encodeFromFloat32(direct.flush(), outEnc)).toEqual(encodeFromFloat32(viaFloats.flush(), outEnc));
      direct.close();
      viaFloats.close();
    },
  );

  it('processEncoded rejects half a sample with RangeError before resampling anything, and use after close', async () => {
    const resampler = await Resampler.create(24000, 16000);
    expect(() => resampler.processEncoded(new Uint8Array(961), 'pcm_s16le', 'pcm_s16le')).toThrow(
      /pcm_s16le data must be whole 2-byte samples, got 961 bytes/,
    );
    // Nothing was counted: 480 samples in give exactly 320 out after flush.
    const out = resampler.processEncoded(new Uint8Array(960), 'pcm_s16le', 'pcm_s16le');
    expect(out.byteLength + resampler.flush().length * 2).toBe(640);
    resampler.close();
    expect(() => resampler.processEncoded(new Uint8Array(2), 'pcm_s16le', 'pcm_s16le')).toThrow(
      'Resampler is closed',
    );
  });

  it('rejects bad rates and qualities with RangeError and use after close with Error', async () => {
    await expect(Resampler.create(0, 8000)).rejects.toThrow(RangeError);
    await expect(Resampler.create(8000.5, 16000)).rejects.toThrow(/inputRate must be an integer/);
    await expect(Resampler.create(8000, 8000)).rejects.toThrow(/rates are equal/);
    await expect(Resampler.create(16000, 200000)).rejects.toThrow(/1 to 192000/);
    await expect(Resampler.create(192000, 1)).rejects.toThrow(
      /192000 -> 1 Hz changes the rate by more than 256 times/,
    );
    await expect(Resampler.create(100, 25601)).rejects.toThrow(RangeError);
    const widest = await Resampler.create(25600, 100); // 256 times: accepted
    expect(run(widest, new Float32Array(2560), [2560]).length).toBe(10);
    widest.close();
    await expect(
      Resampler.create(16000, 8000, { quality: 'cubic' as unknown as ResamplerQuality }),
    ).rejects.toThrow(/unknown quality 'cubic'/);
    const resampler = await Resampler.create(8000, 16000);
    resampler.close();
    resampler.close();
    expect(() => resampler.process(new Float32Array(10))).toThrow('Resampler is closed');
    expect(() => resampler.flush()).toThrow('Resampler is closed');
  });
});

/** Output samples 1000..1003 of the impulse response above, to 6 decimals (Speex quality 3). */
const GOLDEN_48K_16K = [0.298333, 0.034146, -0.03168, 0.027876];
