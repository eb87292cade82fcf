/**
 * Kaiser-windowed sinc low-pass filters for rational sample-rate conversion, tabulated per
 * phase (polyphase), built once per (rates, quality) and shared by every {@link Resampler}.
 *
 * Converting inputRate -> outputRate is the ratio up/down = outputRate/inputRate reduced by
 * their greatest common divisor (24000 -> 16000: up 2, down 3). Output sample k sits at input
 * time k x down / up = n + phase/up. Its value is the sum over `taps` input samples around n of
 * x[j] x h(k x down / up - j), with h the windowed sinc: so each of the `up` phases has its own
 * row of `taps` coefficients. Rows are normalised to sum to 1 (a DC input comes out at its level).
 *
 * Design (J. F. Kaiser's window; the estimate of the length is Kaiser's formula, as in
 * A. V. Oppenheim and R. W. Schafer, "Discrete-Time Signal Processing", section 7.6):
 * the stopband starts at the lower of the two Nyquist frequencies (so nothing above the new
 * Nyquist folds back below it by more than the stopband attenuation), the passband ends at
 * `passband` x that frequency, and the cutoff of the sinc sits half-way between.
 */

/** Resampler filter designs, by cost: see {@link FILTER_DESIGNS}. */
export type ResamplerQuality = 'sinc-fastest' | 'sinc-medium' | 'sinc-best';

/** Stopband attenuation and passband edge of one design. */
export interface FilterDesign {
  /** Stopband attenuation in dB (Kaiser window parameter). */
  readonly attenuationDb: number;
  /** End of the passband as a fraction of the lower Nyquist frequency (0..1). */
  readonly passband: number;
}

/**
 * The designs. `'sinc-fastest'` (the default) is sized for voice: flat to 80% of the new
 * Nyquist (6.4 kHz at 16 kHz, 3.2 kHz at 8 kHz: all of the telephone band), 70 dB below for
 * what lies above it; about 40-60 multiply-adds per output sample.
 */
export const FILTER_DESIGNS: Readonly<Record<ResamplerQuality, FilterDesign>> = {
  'sinc-fastest': { attenuationDb: 70, passband: 0.8 },
  'sinc-medium': { attenuationDb: 90, passband: 0.88 },
  'sinc-best': { attenuationDb: 120, passband: 0.94 },
};

/**
 * At most this many phases are tabulated. Ratios with more (rates whose reduced ratio has a
 * numerator above it, such as 44101 -> 48000) use the nearest lower tabulated phase: a timing
 * error below 1/1024 of an input sample. Every pair of the usual rates (8, 11.025, 16, 22.05,
 * 24, 32, 44.1, 48 kHz) has at most 640 phases and is exact.
 */
export const MAX_PHASES = 1024;

/** A shared, read-only polyphase filter table. */
export interface PolyphaseFilter {
  /** Output rate / input rate, reduced: numerator. */
  readonly up: number;
  /** Output rate / input rate, reduced: denominator. */
  readonly down: number;
  /** Input samples per output sample (a multiple of 4). */
  readonly taps: number;
  /** Tabulated phases: min(up, MAX_PHASES). */
  readonly phases: number;
  /** `phases` rows of `taps` coefficients; row r is for the fraction r / phases. */
  readonly coefficients: Float64Array;
}

const cache = new Map<string, PolyphaseFilter>();

/** Greatest common divisor of two positive integers. */
export function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/**
 * The filter for `inputRate` -> `outputRate` Hz (positive integers) and `quality`, built on
 * the first call (well under 1 ms for the usual rates) and shared afterwards.
 * @throws RangeError for an unknown quality.
 */
export function polyphaseFilter(
  inputRate: number,
  outputRate: number,
  quality: ResamplerQuality,
): PolyphaseFilter {
  if (!Object.hasOwn(FILTER_DESIGNS, quality))
    throw new RangeError(
      `Unknown resampler quality '${String(quality)}' (expected ${Object.keys(FILTER_DESIGNS).join(', ')})`,
    );
  const design = FILTER_DESIGNS[quality];
  const g = gcd(inputRate, outputRate);
  const up = outputRate / g;
  const down = inputRate / g;
  const key = `${up}/${down}/${quality}`;
  let filter = cache.get(key);
  if (!filter) {
    filter = buildFilter(up, down, design);
    cache.set(key, filter);
  }
  return filter;
}

/** Filters built so far (for tests and memory accounting). */
export function cachedFilterCount(): number {
  return cache.size;
}

function buildFilter(up: number, down: number, design: FilterDesign): PolyphaseFilter {
  // Everything below is in input samples. `scale` is the lower Nyquist over the input Nyquist.
  const scale = Math.min(1, up / down);
  const transition = (1 - design.passband) * 0.5 * scale; // cycles per input sample
  const estimate = (design.attenuationDb - 7.95) / (2.285 * 2 * Math.PI * transition);
  // A multiple of 4 (the dot product is unrolled by 4), and long enough that consecutive
  // outputs share input (they are down/up input samples apart).
  const taps = 4 * Math.ceil(Math.max(estimate + 1, 2 * Math.ceil(down / up) + 4) / 4);
  const half = taps / 2;
  const cutoff = scale * (1 + design.passband) * 0.5; // fraction of the input Nyquist
  const beta = kaiserBeta(design.attenuationDb);
  const i0Beta = besselI0(beta);
  const phases = Math.min(up, MAX_PHASES);
  const coefficients = new Float64Array(phases * taps);
  for (let r = 0; r < phases; r++) {
    const fraction = r / phases;
    let sum = 0;
    // Row r, tap i weighs input sample n - half + 1 + i for an output at input time n + fraction.
    for (let i = 0; i < taps; i++) {
      const t = Math.abs(fraction - (i - half + 1)); // |output time - input time|; symmetric by construction
      const value =
        t >= half
          ? 0
          : cutoff * sinc(cutoff * t) * (besselI0(beta * Math.sqrt(1 - (t / half) ** 2)) / i0Beta);
      coefficients[r * taps + i] = value;
      sum += value;
    }
    for (let i = 0; i < taps; i++) coefficients[r * taps + i]! /= sum;
  }
  return { up, down, taps, phases, coefficients };
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Kaiser's beta for a stopband attenuation in dB. */
function kaiserBeta(attenuationDb: number): number {
  if (attenuationDb > 50) return 0.1102 * (attenuationDb - 8.7);
  if (attenuationDb >= 21) return 0.5842 * (attenuationDb - 21) ** 0.4 + 0.07886 * (attenuationDb - 21);
  return 0;
}

/** Modified Bessel function of the first kind, order 0 (power series, to double precision). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 200; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}
