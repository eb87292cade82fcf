import { checkObject } from '../internal/arg-checks.js';

/**
 * Options of {@link syntheticVoice}.
 *
 * @example
 * ```ts
 * const options: SyntheticVoiceOptions = { durationMs: 1000, sampleRate: 16000, seed: 3 };
 * ```
 */
export interface SyntheticVoiceOptions {
  /** Length of the signal in ms; the sample count is `round(durationMs * sampleRate / 1000)`. */
  durationMs: number;
  /** Samples a second, in Hz (e.g. 8000, 16000, 24000). */
  sampleRate: number;
  /** Picks the voice (base pitch, intonation and syllable rate). Default: 0. Any integer. */
  seed?: number | undefined;
}

/** Harmonic amplitudes (1st to 6th), a falling spectrum like a voiced vowel. */
const HARMONICS = [1, 0.62, 0.45, 0.3, 0.18, 0.1] as const;
const HARMONIC_SUM = HARMONICS.reduce((sum, a) => sum + a, 0);
/** Peak level, as a fraction of full scale. */
const PEAK = 0.5;
/** One syllable in this many is a silent gap between "words". */
const SYLLABLES_PER_WORD = 4;

/** mulberry32: a small deterministic PRNG giving floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A deterministic voice-like test signal as mono PCM s16 samples: six harmonics of a pitch
 * (100-180 Hz base, chosen by `seed`) that rises and falls slowly, shaped by a syllable
 * envelope at 3.5-5 syllables a second, with every fourth syllable silent (a gap between
 * words). Peaks stay under half of full scale (16384).
 *
 * Same options give the same samples on every run and machine (no `Math.random`), and a
 * longer signal starts with exactly the samples of a shorter one, so any prefix of a stream
 * can be predicted. Throws RangeError on a negative duration or a non-positive sample rate;
 * TypeError when `options` is not an object.
 *
 * @example
 * ```ts
 * const samples = syntheticVoice({ durationMs: 500, sampleRate: 16000 }); // Int16Array(8000)
 * ```
 */
export function syntheticVoice(options: SyntheticVoiceOptions): Int16Array {
  return voiceOf(options, 'syntheticVoice');
}

/** {@link syntheticVoice}, its errors naming `name`'s call. */
function voiceOf(options: SyntheticVoiceOptions, name: string): Int16Array {
  checkObject(`${name}(options): options`, 'an object ({ durationMs, sampleRate, seed? })', options);
  const { durationMs, sampleRate } = options;
  if (!(durationMs >= 0)) throw new RangeError(`durationMs must be >= 0, got ${durationMs}`);
  if (!(sampleRate > 0)) throw new RangeError(`sampleRate must be > 0 Hz, got ${sampleRate}`);
  return voiceSampler(sampleRate, options.seed ?? 0).next(voiceSampleCount(durationMs, sampleRate));
}

/** Samples in `durationMs` of the voice at `sampleRate` Hz: `round(durationMs * sampleRate / 1000)`. Internal to the kit. */
export function voiceSampleCount(durationMs: number, sampleRate: number): number {
  return Math.round((durationMs * sampleRate) / 1000);
}

/**
 * The {@link syntheticVoice} signal generated piece by piece: each `next(count)` gives the
 * `count` samples after those given so far, the same samples as one longer signal (the voice's
 * state carries over). Internal to the kit: for mocks that add audio as text arrives.
 */
export interface VoiceSampler {
  /** Samples given so far. */
  readonly generated: number;
  /** The next `count` samples. */
  next(count: number): Int16Array;
}

/** A {@link VoiceSampler} at `sampleRate` Hz (> 0) for the voice `seed`. Internal to the kit. */
export function voiceSampler(sampleRate: number, seed: number): VoiceSampler {
  const random = mulberry32(seed);
  const basePitchHz = 100 + random() * 80;
  const intonationHz = 0.3 + random() * 0.4;
  const intonationPhase = random() * 2 * Math.PI;
  const syllableHz = 3.5 + random() * 1.5;
  const scale = (PEAK * 32767) / HARMONIC_SUM;
  let phase = 0;
  let generated = 0;
  return {
    get generated() {
      return generated;
    },
    next(count) {
      const out = new Int16Array(count);
      for (let i = 0; i < count; i++) {
        const n = generated + i;
        const t = n / sampleRate;
        const syllable = t * syllableHz;
        const index = Math.floor(syllable);
        const arch = Math.sin(Math.PI * (syllable - index));
        const pitchHz =
          basePitchHz *
          (1 + 0.15 * Math.sin(2 * Math.PI * intonationHz * t + intonationPhase)) *
          (1 + 0.06 * arch);
        phase += (2 * Math.PI * pitchHz) / sampleRate;
        if (phase > 2 * Math.PI) phase -= 2 * Math.PI;
        if (index % SYLLABLES_PER_WORD === SYLLABLES_PER_WORD - 1) continue; // a gap between words
        // sin(k x phase) for k = 1..6 by the Chebyshev recurrence: s(k+1) = 2 cos(phase) s(k) - s(k-1)
        const twoCos = 2 * Math.cos(phase);
        let previous = 0;
        let current = Math.sin(phase);
        let value = 0;
        for (let k = 0; k < HARMONICS.length; k++) {
          value += HARMONICS[k]! * current;
          const next = twoCos * current - previous;
          previous = current;
          current = next;
        }
        out[i] = Math.round(value * arch * arch * scale);
      }
      generated += count;
      return out;
    },
  };
}

/**
 * {@link syntheticVoice} as PCM s16le bytes (2 bytes a sample, little-endian on any machine).
 *
 * @example
 * ```ts
 * const bytes = syntheticVoiceBytes({ durationMs: 100, sampleRate: 24000 }); // 4800 bytes
 * ```
 */
export function syntheticVoiceBytes(options: SyntheticVoiceOptions): Uint8Array {
  return s16leBytes(voiceOf(options, 'syntheticVoiceBytes'));
}

/**
 * Signed 16-bit samples as PCM s16le bytes (little-endian on any host). Internal to the kit.
 *
 * @example
 * ```ts
 * s16leBytes(Int16Array.of(1, -2)); // Uint8Array [1, 0, 254, 255]
 * ```
 */
export function s16leBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return bytes;
}
