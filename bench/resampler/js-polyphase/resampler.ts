import { type PolyphaseFilter, polyphaseFilter, type ResamplerQuality } from './polyphase-filter.js';

/** Options of {@link Resampler.create}. */
export interface ResamplerOptions {
  /**
   * Filter design (see docs/audio.md). Default: `'sinc-fastest'`: flat to 80% of the new
   * Nyquist frequency, 70 dB stopband, about 1.9 ms of delay at 24 -> 16 kHz.
   * `'sinc-medium'` (90 dB, 88%) and `'sinc-best'` (120 dB, 94%) cost 2-5 times more CPU.
   */
  quality?: ResamplerQuality;
}

/** Highest rate accepted, in Hz. */
const MAX_RATE = 192000;

/**
 * Working buffer shared by all resamplers: the held input followed by the new chunk. Safe to
 * share because {@link Resampler.process} is synchronous; grown as needed, never shrunk.
 */
let scratch = new Float32Array(8192);

/**
 * A candidate of bench/resampler.ts, not used by voxroute (docs/decisions.md, "Resampler").
 *
 * A streaming mono sample-rate converter: a Kaiser-windowed sinc polyphase filter
 * (polyphase-filter.ts) whose coefficient table is shared by every resampler of the same
 * rates and quality, so a resampler holds only its last few input samples (under 2 KB for the
 * usual rates) and is created in microseconds.
 *
 * Output sample k is the filter evaluated at input time k x inputRate / outputRate (no added
 * delay: the output is aligned with the input; the filter looks `taps / 2` input samples ahead,
 * which is what {@link process} holds back). Each output sample is computed from the same input
 * samples, in the same order, however the input was cut, so the concatenated output is
 * bit-identical for any chunking. The stream is taken to be preceded and (at {@link flush})
 * followed by silence; the total is exactly round(N x outputRate / inputRate) samples for the
 * N input samples.
 */
export class Resampler {
  /** Input rate in Hz. */
  readonly inputRate: number;
  /** Output rate in Hz. */
  readonly outputRate: number;
  /** Filter design in use. */
  readonly quality: ResamplerQuality;
  readonly #filter: PolyphaseFilter;
  /** Input not yet used up: it starts at the window of the next output sample. */
  readonly #held: Float32Array;
  #heldLength = 0;
  /** Position of the next output between input samples: phase / up (0 <= phase < up). */
  #phase = 0;
  #inputFrames = 0;
  #outputFrames = 0;
  #closed = false;

  private constructor(inputRate: number, outputRate: number, quality: ResamplerQuality) {
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.quality = quality;
    this.#filter = polyphaseFilter(inputRate, outputRate, quality);
    this.#held = new Float32Array(this.#filter.taps);
    this.#reset();
  }

  /**
   * A resampler from `inputRate` to `outputRate` Hz (integers, 1..192000; tested with 8000,
   * 16000, 22050, 24000, 44100 and 48000). Synchronous work under the hood: the shared filter
   * table is built the first time a pair of rates is used (well under 1 ms for the usual
   * rates), and later resamplers take a few microseconds.
   * @throws RangeError for a rate outside 1..192000 or not an integer, equal rates, or an
   * unknown quality.
   */
  static async create(
    inputRate: number,
    outputRate: number,
    options: ResamplerOptions = {},
  ): Promise<Resampler> {
    return Resampler.createSync(inputRate, outputRate, options);
  }

  /** {@link create} without the promise. Same errors. */
  static createSync(inputRate: number, outputRate: number, options: ResamplerOptions = {}): Resampler {
    checkRate(inputRate, 'inputRate');
    checkRate(outputRate, 'outputRate');
    if (inputRate === outputRate)
      throw new RangeError(`Resampler: rates are equal (${inputRate} Hz); no resampling needed`);
    return new Resampler(inputRate, outputRate, options.quality ?? 'sinc-fastest');
  }

  /** Input samples per output sample of the filter (a multiple of 4). */
  get taps(): number {
    return this.#filter.taps;
  }

  /**
   * Resamples the next piece of the stream. Returns the new output samples (possibly none:
   * the filter holds `taps / 2` input samples back until {@link flush}).
   * @throws Error after {@link close}.
   */
  process(input: Float32Array): Float32Array {
    this.#open();
    this.#inputFrames += input.length;
    return this.#run(input, Number.POSITIVE_INFINITY);
  }

  /**
   * Ends the stream: returns the rest of the output (the held input followed by silence), so
   * that the stream's total is exactly round(inputSamples x outputRate / inputRate). Then
   * clears the state (a new stream may follow).
   * @throws Error after {@link close}.
   */
  flush(): Float32Array {
    this.#open();
    const { up, down, taps } = this.#filter;
    const need = Math.round((this.#inputFrames * up) / down) - this.#outputFrames;
    const out =
      need > 0
        ? this.#run(new Float32Array(Math.ceil((need * down) / up) + taps), need)
        : new Float32Array(0);
    this.#reset();
    return out;
  }

  /** Ends the use of the resampler. Idempotent; it is unusable afterwards. */
  close(): void {
    this.#closed = true;
  }

  /** Outputs every sample whose window is complete (at most `limit`). */
  #run(input: Float32Array, limit: number): Float32Array {
    const { up, down, taps, phases, coefficients } = this.#filter;
    const total = this.#heldLength + input.length;
    if (total < taps) {
      this.#held.set(input, this.#heldLength);
      this.#heldLength = total;
      return new Float32Array(0);
    }
    if (scratch.length < total) scratch = new Float32Array(2 ** Math.ceil(Math.log2(total)));
    const work = scratch;
    work.set(this.#held.subarray(0, this.#heldLength));
    work.set(input, this.#heldLength);
    // Outputs k = 0, 1, ... start their window at floor((phase + k x down) / up); those that
    // fit start at or before total - taps.
    const fit = Math.floor(((total - taps + 1) * up - this.#phase - 1) / down) + 1;
    const count = Math.min(fit, limit);
    const out = new Float32Array(count);
    const step = Math.floor(down / up);
    const carry = down - step * up;
    const exact = phases === up;
    let phase = this.#phase;
    let start = 0;
    for (let k = 0; k < count; k++) {
      const row = (exact ? phase : Math.floor((phase * phases) / up)) * taps;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let i = 0; i < taps; i += 4) {
        a0 += coefficients[row + i]! * work[start + i]!;
        a1 += coefficients[row + i + 1]! * work[start + i + 1]!;
        a2 += coefficients[row + i + 2]! * work[start + i + 2]!;
        a3 += coefficients[row + i + 3]! * work[start + i + 3]!;
      }
      out[k] = a0 + a1 + (a2 + a3);
      start += step;
      phase += carry;
      if (phase >= up) {
        phase -= up;
        start += 1;
      }
    }
    this.#phase = phase;
    this.#outputFrames += count;
    if (count < fit) return out; // flush(): the state is reset next
    this.#heldLength = total - start;
    this.#held.set(work.subarray(start, total));
    return out;
  }

  /** Silence before the stream: the first output's window starts taps/2 - 1 samples early. */
  #reset(): void {
    this.#heldLength = this.#filter.taps / 2 - 1;
    this.#held.fill(0);
    this.#phase = 0;
    this.#inputFrames = 0;
    this.#outputFrames = 0;
  }

  #open(): void {
    if (this.#closed) throw new Error('Resampler is closed');
  }
}

function checkRate(rate: number, name: string): void {
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE) {
    throw new RangeError(`Resampler: ${name} must be an integer from 1 to ${MAX_RATE} Hz, got ${rate}`);
  }
}
