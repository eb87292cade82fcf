import type { AudioEncoding } from '../types/audio.js';
import { bytesPerSample } from './format.js';
import { decodeG711Into, decodeInto, encodeFromFloat32, encodeG711FromS16 } from './pcm-codec.js';
import { IO_SAMPLES, loadSpeex, type Speex } from './speex-wasm.js';

/**
 * Resampler quality, by cost. Each name maps to a Speex quality level (0..10):
 * `'sinc-best'` 10, `'sinc-medium'` 5, `'sinc-fastest'` 3 (the default: Speex's VoIP level;
 * measured 96 dB SNR on a swept sine, flat to 0.02 dB up to 80% of the new Nyquist frequency,
 * alias products 88 dB down, 1.5 ms of output held back at 24 kHz -> 16 kHz, 3 ms at
 * 24 kHz -> 8 kHz, 3500-4500x real time), `'linear'` 1 and `'zero-order-hold'` 0 (the
 * cheapest; short filters that let some aliasing through). The names are those of the
 * libsamplerate converters voxroute used before (docs/decisions.md).
 */
export type ResamplerQuality = 'sinc-best' | 'sinc-medium' | 'sinc-fastest' | 'zero-order-hold' | 'linear';

/** Speex quality level of each {@link ResamplerQuality}. */
export const SPEEX_QUALITY: Readonly<Record<ResamplerQuality, number>> = {
  'sinc-best': 10,
  'sinc-medium': 5,
  'sinc-fastest': 3,
  linear: 1,
  'zero-order-hold': 0,
};

/** Options of {@link Resampler.create}. */
export interface ResamplerOptions {
  /** Default: `'sinc-fastest'` (see {@link ResamplerQuality}). */
  quality?: ResamplerQuality;
}

/** Highest rate accepted, in Hz. */
export const MAX_RATE = 192000;

/**
 * Largest rate change accepted, either way (libsamplerate's limit, which voxroute had before).
 * Speex's filter grows with the downsampling ratio: at 256 a resampler takes about 40 ms to
 * create; at 192000 -> 1 it would take seconds.
 */
export const MAX_RATIO = 256;

const EMPTY_BYTES = new Uint8Array(0);

/**
 * What a stream has fed the Speex state so far: its filter memory holds samples at the scale
 * they came in, [-1, 1] for floats and -32768..32767 for int16, so one stream stays on one path
 * until flush().
 */
const FRESH = 0;
const FLOAT = 1;
const INT16 = 2;

/** Resamplers dropped without close() give their Speex state back when collected. */
const finalizer = new FinalizationRegistry<{ speex: Speex; state: number }>(({ speex, state }) =>
  speex.module._speex_resampler_destroy(state),
);

/**
 * A streaming mono sample-rate converter: the Speex resampler (SpeexDSP) in WebAssembly
 * (speex-wasm.ts). Its state is 1-3 KB in the shared WebAssembly heap; creating one takes a
 * few microseconds once the module is loaded.
 *
 * {@link process} takes Float32 samples of any length and returns what the filter can output
 * so far: the state carries across calls, and each output sample is computed from the same
 * input samples however the input was cut, so the concatenated output is bit-identical for
 * any chunking. Output is aligned with input (Speex's initial delay is skipped). The stream is
 * taken to be followed by silence: {@link flush} drains the filter and makes the total exactly
 * round(N x outputRate / inputRate) samples for the N input samples, then clears the state so
 * the resampler can serve the next stream.
 */
export class Resampler {
  /** Input rate in Hz. */
  readonly inputRate: number;
  /** Output rate in Hz. */
  readonly outputRate: number;
  /** Quality in use. */
  readonly quality: ResamplerQuality;
  readonly #speex: Speex;
  /** Speex state pointer; 0 once closed. */
  #state: number;
  #inputFrames = 0;
  #outputFrames = 0;
  /** FRESH, FLOAT or INT16: the path this stream took (see INT16). */
  #path = FRESH;

  private constructor(
    speex: Speex,
    state: number,
    inputRate: number,
    outputRate: number,
    quality: ResamplerQuality,
  ) {
    this.#speex = speex;
    this.#state = state;
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.quality = quality;
    finalizer.register(this, { speex, state }, this);
  }

  /**
   * A resampler from `inputRate` to `outputRate` Hz (integers, 1..192000; tested with 8000,
   * 16000, 22050, 24000, 44100 and 48000). The first call loads the WebAssembly module (about
   * 20-50 ms, see `preloadResampler`); later ones take a few microseconds.
   * @throws RangeError for a rate outside 1..192000 or not an integer, equal rates, rates more
   * than 256 times apart, or an unknown quality; Error if the Speex resampler refuses the rates.
   */
  static async create(
    inputRate: number,
    outputRate: number,
    options: ResamplerOptions = {},
  ): Promise<Resampler> {
    checkResampleRates(inputRate, outputRate);
    const quality = options.quality ?? 'sinc-fastest';
    if (!Object.hasOwn(SPEEX_QUALITY, quality))
      throw new RangeError(
        `Resampler: unknown quality '${String(quality)}' (expected ${Object.keys(SPEEX_QUALITY).join(', ')})`,
      );
    const speex = await loadSpeex();
    const m = speex.module;
    const state = m._speex_resampler_init(1, inputRate, outputRate, SPEEX_QUALITY[quality], speex.error);
    if (state === 0)
      throw new Error(
        `Resampler: the Speex resampler refused ${inputRate} -> ${outputRate} Hz (error ${m.HEAP32[speex.error >> 2]})`,
      );
    m._speex_resampler_skip_zeros(state);
    return new Resampler(speex, state, inputRate, outputRate, quality);
  }

  /**
   * Resamples the next piece of the stream. Returns the new output samples (possibly none:
   * the filter holds half its length back until the next call or {@link flush}: with the
   * default quality, 1.5 ms of output at 24 -> 16 kHz, 3 ms at 24 -> 8 kHz and 8 -> 16 kHz).
   * @throws Error after {@link close}.
   */
  process(input: Float32Array): Float32Array {
    const state = this.#open();
    if (this.#path === INT16)
      throw new Error(
        'Resampler: this stream was fed int16 samples (processEncoded); float samples may follow only after flush()',
      );
    this.#path = FLOAT;
    this.#inputFrames += input.length;
    const out = this.#run(state, input, Number.POSITIVE_INFINITY);
    this.#outputFrames += out.length;
    return out;
  }

  /**
   * {@link process} for encoded samples: returns `data` (whole samples of `from`) resampled and
   * encoded as `to`, the bytes of `encodeFromFloat32(process(decodeToFloat32(data, from)), to)`.
   * Used for every converted chunk, at one allocation per call (the result):
   * - PCM s16le, mu-law and A-law on both sides take Speex's int16 path: s16le bytes are copied
   *   into the heap as they are (G.711 codes decoded into it through a table), and its rounded
   *   int16 output is copied out as s16le bytes or encoded through a table. Its figures are
   *   those of the float path bit for bit: the filter runs on the same floats scaled by 2^15, an
   *   exact scaling, and rounds as `floatToS16` does (docs/audio.md, "Converter").
   * - pcm_f32le on either side takes the float path: decoded straight into the input area,
   *   encoded from the output area.
   * A stream stays on the path its first call took until {@link flush}; a float-path call on a
   * stream that took the int16 path is refused (an int16-path call on a float stream takes the
   * float path, with the same bytes).
   * @throws RangeError when `data` is not a whole number of samples of `from`; Error after
   * {@link close}, or for pcm_f32le on a stream that took the int16 path.
   */
  processEncoded(data: Uint8Array, from: AudioEncoding, to: AudioEncoding): Uint8Array {
    const state = this.#open();
    const width = bytesPerSample(from);
    if (data.byteLength % width !== 0)
      throw new RangeError(
        `${from} data must be whole ${width}-byte samples, got ${data.byteLength} bytes (frame it with SampleFramer first)`,
      );
    if (from !== 'pcm_f32le' && to !== 'pcm_f32le' && this.#path !== FLOAT) {
      this.#path = INT16;
      return this.#processInt16(state, data, from, to);
    }
    if (this.#path === INT16)
      throw new Error(
        `Resampler: this stream was fed int16 samples; ${from} -> ${to} may follow only after flush()`,
      );
    this.#path = FLOAT;
    return this.#processFloat(state, data, from, to, width);
  }

  /** processEncoded's int16 path: `from` and `to` are pcm_s16le, mulaw or alaw. */
  #processInt16(state: number, data: Uint8Array, from: AudioEncoding, to: AudioEncoding): Uint8Array {
    const n = from === 'pcm_s16le' ? data.byteLength >> 1 : data.byteLength;
    this.#inputFrames += n;
    const { module: m, input: inPtr, lengths } = this.#speex;
    let single: Uint8Array | undefined;
    let parts: Uint8Array[] | undefined;
    let samples = 0;
    let at = 0;
    while (at < n) {
      const k = Math.min(IO_SAMPLES, n - at);
      if (from === 'pcm_s16le') m.HEAPU8.set(k === n ? data : data.subarray(at * 2, (at + k) * 2), inPtr);
      else
        decodeG711Into(
          k === n ? data : data.subarray(at, at + k),
          from as 'mulaw' | 'alaw',
          m.HEAP16,
          inPtr >> 1,
        );
      const out = this.#stepInt16(state, k, to);
      at += m.HEAPU32[lengths >> 2]!;
      if (out === undefined) continue;
      if (single === undefined) single = out;
      else if (parts === undefined) parts = [single, out];
      else parts.push(out);
      samples += out.byteLength;
    }
    if (to === 'pcm_s16le') samples >>= 1;
    this.#outputFrames += samples;
    if (parts === undefined) return single ?? EMPTY_BYTES;
    return joinBytes(parts, samples * bytesPerSample(to));
  }

  /**
   * One call of `speex_resampler_process_int` on the `k` int16 samples in the input area (at
   * most IO_SAMPLES out): the output encoded as `to` (pcm_s16le, mulaw or alaw), or undefined
   * when there is none. Leaves the samples consumed in the lengths area.
   */
  #stepInt16(state: number, k: number, to: AudioEncoding): Uint8Array | undefined {
    const { module: m, input: inPtr, output: outPtr, lengths } = this.#speex;
    m.HEAPU32[lengths >> 2] = k;
    m.HEAPU32[(lengths >> 2) + 1] = IO_SAMPLES;
    m._speex_resampler_process_int(state, 0, inPtr, lengths, outPtr, lengths + 4);
    // Read the views again: the call may have grown the heap.
    const consumed = m.HEAPU32[lengths >> 2]!;
    const produced = m.HEAPU32[(lengths >> 2) + 1]!;
    if (consumed === 0 && produced === 0) throw new Error('Resampler: the Speex resampler made no progress');
    if (produced === 0) return undefined;
    if (to === 'pcm_s16le') return m.HEAPU8.slice(outPtr, outPtr + produced * 2);
    return encodeG711FromS16(m.HEAP16, outPtr >> 1, produced, to as 'mulaw' | 'alaw');
  }

  /** processEncoded's float path (pcm_f32le on either side). */
  #processFloat(
    state: number,
    data: Uint8Array,
    from: AudioEncoding,
    to: AudioEncoding,
    width: number,
  ): Uint8Array {
    const n = data.byteLength / width;
    this.#inputFrames += n;
    const { module: m, input: inPtr, output: outPtr, lengths } = this.#speex;
    let single: Uint8Array | undefined;
    let parts: Uint8Array[] | undefined;
    let samples = 0;
    let at = 0;
    while (at < n) {
      const k = Math.min(IO_SAMPLES, n - at);
      decodeInto(k === n ? data : data.subarray(at * width, (at + k) * width), from, m.HEAPF32, inPtr >> 2);
      m.HEAPU32[lengths >> 2] = k;
      m.HEAPU32[(lengths >> 2) + 1] = IO_SAMPLES;
      m._speex_resampler_process_float(state, 0, inPtr, lengths, outPtr, lengths + 4);
      // Read the views again: the call may have grown the heap.
      const consumed = m.HEAPU32[lengths >> 2]!;
      const produced = m.HEAPU32[(lengths >> 2) + 1]!;
      if (produced > 0) {
        const out = encodeFromFloat32(m.HEAPF32.subarray(outPtr >> 2, (outPtr >> 2) + produced), to);
        if (single === undefined) single = out;
        else if (parts === undefined) parts = [single, out];
        else parts.push(out);
        samples += produced;
      }
      at += consumed;
      if (consumed === 0 && produced === 0)
        throw new Error('Resampler: the Speex resampler made no progress');
    }
    this.#outputFrames += samples;
    if (parts === undefined) return single ?? EMPTY_BYTES;
    return joinBytes(parts, samples * bytesPerSample(to));
  }

  /**
   * Ends the stream: returns the rest of the output (the held input followed by silence), so
   * that the stream's total is exactly round(inputSamples x outputRate / inputRate). Then
   * clears the state (a new stream may follow).
   * @throws Error after {@link close}.
   */
  flush(): Float32Array {
    const state = this.#open();
    const need = Math.round((this.#inputFrames * this.outputRate) / this.inputRate) - this.#outputFrames;
    const tail = this.#path === INT16 ? this.#drainInt16(state, need) : this.#drainFloat(state, need);
    const m = this.#speex.module;
    m._speex_resampler_reset_mem(state);
    m._speex_resampler_skip_zeros(state);
    this.#inputFrames = 0;
    this.#outputFrames = 0;
    this.#path = FRESH;
    return tail;
  }

  /** `need` samples of output (fewer if the filter runs dry), pushed out by silence, as floats. */
  #drainFloat(state: number, need: number): Float32Array {
    const parts: Float32Array[] = [];
    let have = 0;
    // Silence long enough to push `need` samples out, plus the filter's length (Speex filters
    // are at most 256 taps at the output rate, scaled up by the rate ratio when downsampling).
    const silence = new Float32Array(Math.ceil((need * this.inputRate) / this.outputRate) + 1024);
    for (let round = 0; have < need && round < 64; round++) {
      const out = this.#run(state, silence, need - have);
      parts.push(out);
      have += out.length;
    }
    return concat(parts, Math.min(have, Math.max(need, 0)));
  }

  /** #drainFloat for a stream on the int16 path: its int16 output, as floats (s / 32768). */
  #drainInt16(state: number, need: number): Float32Array {
    const out = new Float32Array(Math.max(need, 0));
    const { module: m, input: inPtr, output: outPtr, lengths } = this.#speex;
    // As in #drainFloat: silence enough for `need` samples plus the filter's length.
    const k = Math.min(IO_SAMPLES, Math.ceil((need * this.inputRate) / this.outputRate) + 1024);
    let have = 0;
    for (let round = 0; have < need && round < 64; round++) {
      m.HEAPU8.fill(0, inPtr, inPtr + k * 2);
      m.HEAPU32[lengths >> 2] = k;
      m.HEAPU32[(lengths >> 2) + 1] = Math.min(IO_SAMPLES, need - have);
      m._speex_resampler_process_int(state, 0, inPtr, lengths, outPtr, lengths + 4);
      const produced = m.HEAPU32[(lengths >> 2) + 1]!;
      const s16 = m.HEAP16;
      for (let i = 0; i < produced; i++) out[have++] = s16[(outPtr >> 1) + i]! / 32768;
    }
    return have === out.length ? out : out.subarray(0, have);
  }

  /** Frees the Speex state. Idempotent; the resampler is unusable afterwards. */
  close(): void {
    const state = this.#state;
    if (state === 0) return;
    this.#state = 0;
    finalizer.unregister(this);
    this.#speex.module._speex_resampler_destroy(state);
  }

  /** Streams `input` through Speex, through the shared I/O area; at most `limit` samples out. */
  #run(state: number, input: Float32Array, limit: number): Float32Array {
    const { module: m, input: inPtr, output: outPtr, lengths } = this.#speex;
    const parts: Float32Array[] = [];
    let total = 0;
    let at = 0;
    while (at < input.length && total < limit) {
      const n = Math.min(IO_SAMPLES, input.length - at);
      m.HEAPF32.set(input.subarray(at, at + n), inPtr >> 2);
      m.HEAPU32[lengths >> 2] = n;
      m.HEAPU32[(lengths >> 2) + 1] = IO_SAMPLES;
      m._speex_resampler_process_float(state, 0, inPtr, lengths, outPtr, lengths + 4);
      // Read the views again: the call may have grown the heap.
      const consumed = m.HEAPU32[lengths >> 2]!;
      const produced = Math.min(m.HEAPU32[(lengths >> 2) + 1]!, limit - total);
      if (produced > 0) parts.push(m.HEAPF32.slice(outPtr >> 2, (outPtr >> 2) + produced));
      total += produced;
      at += consumed;
      if (consumed === 0 && produced === 0)
        throw new Error('Resampler: the Speex resampler made no progress');
    }
    return parts.length === 1 ? parts[0]! : concat(parts, total);
  }

  #open(): number {
    if (this.#state === 0) throw new Error('Resampler is closed');
    return this.#state;
  }
}

/**
 * Loads the WebAssembly resampler (Speex, about 10-50 ms the first time, compiled off the event
 * loop; its heap reserves 16 MB once) so that the first stream that needs resampling, in a
 * router call or a `createAudioConverter()`, does not wait for it. `router.warmup()` calls
 * it; call it yourself at startup when you convert audio without a router. Later calls resolve
 * at once. The module is never loaded at `import 'voxroute'`.
 *
 * @throws (the promise rejects) the loader's error when `@echogarden/speex-resampler-wasm`
 *   cannot be loaded (missing package, a bundle without its `.wasm` file); the next call tries
 *   again.
 */
export async function preloadResampler(): Promise<void> {
  await loadSpeex();
}

/**
 * The checks of {@link Resampler.create} on its rates (also run before a stream is handed to
 * the resampler's worker thread, so both paths refuse the same rates with the same error).
 * @throws RangeError for a rate outside 1..192000 or not an integer, equal rates, or rates
 * more than 256 times apart.
 */
export function checkResampleRates(inputRate: number, outputRate: number): void {
  checkRate(inputRate, 'inputRate');
  checkRate(outputRate, 'outputRate');
  if (inputRate === outputRate)
    throw new RangeError(`Resampler: rates are equal (${inputRate} Hz); no resampling needed`);
  if (!ratesWithinRatio(inputRate, outputRate))
    throw new RangeError(
      `Resampler: ${inputRate} -> ${outputRate} Hz changes the rate by more than ${MAX_RATIO} times`,
    );
}

/** Whether `rate` (Hz) is one the resampler takes: an integer from 1 to {@link MAX_RATE}. */
export function rateInRange(rate: number): boolean {
  return Number.isInteger(rate) && rate >= 1 && rate <= MAX_RATE;
}

/** Whether two rates (Hz) are at most {@link MAX_RATIO} times apart, either way. */
export function ratesWithinRatio(a: number, b: number): boolean {
  return a <= b * MAX_RATIO && b <= a * MAX_RATIO;
}

function checkRate(rate: number, name: string): void {
  if (!rateInRange(rate)) {
    throw new RangeError(`Resampler: ${name} must be an integer from 1 to ${MAX_RATE} Hz, got ${rate}`);
  }
}

/** `parts` joined into `length` bytes. */
function joinBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
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
