import {
  acquireWasmResampler,
  type ResamplerQuality,
  releaseWasmResampler,
  resetWasmResampler,
  type WasmResampler,
} from './resampler-pool.js';

/** Options of {@link Resampler.create}. */
export interface ResamplerOptions {
  /**
   * libsamplerate converter. Default: `'sinc-fastest'` (band-limited, so no aliasing when
   * going down to 8 kHz; about 2.5 ms of delay at 24 -> 8 kHz; about 4 ms of CPU per second of
   * audio). `'linear'` is cheaper but aliases when downsampling.
   */
  quality?: ResamplerQuality;
}

const EMPTY = new Float32Array(0);

/** Highest rate libsamplerate-js accepts, in Hz. */
const MAX_RATE = 192000;

/**
 * A streaming mono sample-rate converter (libsamplerate through WebAssembly).
 *
 * {@link process} takes Float32 samples of any length and returns what the converter can
 * output so far: the filter state carries across calls, so chunk edges are seamless and the
 * concatenated output does not depend on how the input was cut. {@link flush} ends the
 * stream: it drains the filter (by feeding silence, as libsamplerate does at end of input)
 * and makes the total output exactly round(N x outputRate / inputRate) samples for the N
 * input samples, then resets the state so the resampler can serve the next stream.
 */
export class Resampler {
  /** Input rate in Hz. */
  readonly inputRate: number;
  /** Output rate in Hz. */
  readonly outputRate: number;
  /** Converter in use. */
  readonly quality: ResamplerQuality;
  #src: WasmResampler | undefined;
  #inputFrames = 0;
  #outputFrames = 0;
  #held: Float32Array = EMPTY;

  private constructor(src: WasmResampler, inputRate: number, outputRate: number, quality: ResamplerQuality) {
    this.#src = src;
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.quality = quality;
  }

  /**
   * A resampler from `inputRate` to `outputRate` Hz (integers, 1..192000; tested with 8000,
   * 16000, 22050, 24000, 44100 and 48000). Takes about 0.1 ms when the pool has an idle
   * converter, 10-40 ms otherwise (plus about 150 ms to load the package the first time; see
   * `preloadResampler`).
   * @throws RangeError for a rate outside 1..192000 or not an integer, or equal rates.
   */
  static async create(
    inputRate: number,
    outputRate: number,
    options: ResamplerOptions = {},
  ): Promise<Resampler> {
    checkRate(inputRate, 'inputRate');
    checkRate(outputRate, 'outputRate');
    if (inputRate === outputRate)
      throw new RangeError(`Resampler: rates are equal (${inputRate} Hz); no resampling needed`);
    const quality = options.quality ?? 'sinc-fastest';
    const src = await acquireWasmResampler(inputRate, outputRate, quality);
    return new Resampler(src, inputRate, outputRate, quality);
  }

  /**
   * Resamples the next piece of the stream. Returns the new output samples (possibly none:
   * the filter holds a few ms back until {@link flush}).
   * @throws Error after {@link close}.
   */
  process(input: Float32Array): Float32Array {
    const src = this.#open();
    if (input.length === 0) return new Float32Array(0);
    this.#inputFrames += input.length;
    const fresh = src.full(input);
    // Never run ahead of round(in x ratio): hold any excess (linear and zero-order-hold converters
    // can be a sample early) so the stream's total stays exact.
    const available =
      this.#held.length === 0 ? fresh : concat([this.#held, fresh], this.#held.length + fresh.length);
    const allowed = Math.max(this.#expected() - this.#outputFrames, 0);
    const out = available.length <= allowed ? available : available.subarray(0, allowed);
    this.#held = available.length <= allowed ? EMPTY : available.slice(allowed);
    this.#outputFrames += out.length;
    return out;
  }

  /**
   * Ends the stream: returns the rest of the output, so that the stream's total is exactly
   * round(inputSamples x outputRate / inputRate). Then clears the state (a new stream may follow).
   * @throws Error after {@link close}.
   */
  flush(): Float32Array {
    const src = this.#open();
    const need = Math.max(this.#expected() - this.#outputFrames, 0);
    const parts: Float32Array[] = [this.#held];
    let have = this.#held.length;
    // Each block of silence yields about blockIn x ratio samples; a few rounds drain any filter.
    const blockIn = Math.ceil((need * this.inputRate) / this.outputRate) + 256;
    for (let round = 0; have < need && round < 64; round++) {
      const out = src.full(new Float32Array(blockIn));
      parts.push(out);
      have += out.length;
    }
    this.#inputFrames = 0;
    this.#outputFrames = 0;
    this.#held = EMPTY;
    resetWasmResampler(src);
    return concat(parts, Math.min(need, have));
  }

  /** Gives the converter back to the pool. Idempotent; the resampler is unusable afterwards. */
  close(): void {
    const src = this.#src;
    if (!src) return;
    this.#src = undefined;
    releaseWasmResampler(src);
  }

  #expected(): number {
    return Math.round((this.#inputFrames * this.outputRate) / this.inputRate);
  }

  #open(): WasmResampler {
    if (!this.#src) throw new Error('Resampler is closed');
    return this.#src;
  }
}

function checkRate(rate: number, name: string): void {
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE) {
    throw new RangeError(`Resampler: ${name} must be an integer from 1 to ${MAX_RATE} Hz, got ${rate}`);
  }
}

/** The first `length` samples of `parts` joined. */
function concat(parts: readonly Float32Array[], length: number): Float32Array {
  const out = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    if (at >= length) break;
    const take = part.length <= length - at ? part : part.subarray(0, length - at);
    out.set(take, at);
    at += take.length;
  }
  return out;
}
