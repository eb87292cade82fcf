/**
 * Loading and pooling of libsamplerate converters (`@alexanderolsen/libsamplerate-js`, a
 * WebAssembly build of libsamplerate).
 *
 * Why a pool: that package instantiates a fresh WebAssembly module (about 16 MB of memory)
 * on every `create()`, synchronously, and each module holds exactly one converter state.
 * Measured on Node 20 (x86-64): loading the package about 115-150 ms (parsing a 2 MB
 * bundle), the first `create()` about 40 ms, later ones 9-20 ms, all blocking the event loop;
 * re-initialising an existing converter (new rates, cleared state) about 0.1 ms. So
 * released converters are kept (up to {@link MAX_IDLE_RESAMPLERS}) and re-initialised for
 * the next stream, and {@link preloadResampler} lets the router pay the load at warm-up.
 * The package is imported lazily, so `import 'voxroute'` does not pay for it.
 */

/** libsamplerate converter types (libsamplerate docs, "Converters"), by quality and cost. */
export type ResamplerQuality = 'sinc-best' | 'sinc-medium' | 'sinc-fastest' | 'zero-order-hold' | 'linear';

/** libsamplerate's numeric converter type for each quality (SRC_SINC_BEST_QUALITY = 0 ... SRC_LINEAR = 4). */
const CONVERTER_TYPE: Record<ResamplerQuality, number> = {
  'sinc-best': 0,
  'sinc-medium': 1,
  'sinc-fastest': 2,
  'zero-order-hold': 3,
  linear: 4,
};

/** At most this many idle converters are kept for reuse; more are destroyed on release. */
export const MAX_IDLE_RESAMPLERS = 4;

/** The part of the package's `SRC` object voxroute uses. */
export interface WasmResampler {
  /** Streams `dataIn` through libsamplerate's full API; returns a new array of the output. */
  full(dataIn: Float32Array): Float32Array;
  destroy(): void;
  /** Setting it re-initialises the converter (state cleared). */
  inputSampleRate: number;
  /** Setting it re-initialises the converter (state cleared). */
  outputSampleRate: number;
  /** Setting it (even to the same value) re-initialises the converter (state cleared). */
  converterType: number;
  /** out/in rate ratio the package uses to size its buffers; the setters above leave it stale. */
  ratio: number;
}

interface LibSampleRate {
  create(
    channels: number,
    inputSampleRate: number,
    outputSampleRate: number,
    options: { converterType: number },
  ): Promise<WasmResampler>;
}

let library: Promise<LibSampleRate> | undefined;
const idle: WasmResampler[] = [];

function pickLibrary(mod: unknown): LibSampleRate {
  // Node's ESM loader exposes this CommonJS bundle as `default`; bundlers may flatten it.
  const candidates = [mod, (mod as { default?: unknown } | null)?.default];
  for (const candidate of candidates) {
    if (candidate && typeof (candidate as LibSampleRate).create === 'function')
      return candidate as LibSampleRate;
  }
  throw new Error('@alexanderolsen/libsamplerate-js did not export create()');
}

/** Imports the package once (lazily); a failed import is retried on the next call. */
function loadLibrary(): Promise<LibSampleRate> {
  library ??= import('@alexanderolsen/libsamplerate-js').then(pickLibrary, (error: unknown) => {
    library = undefined;
    throw error;
  });
  return library;
}

/** Converter type number of `quality`. @throws RangeError for an unknown quality. */
export function converterTypeOf(quality: ResamplerQuality): number {
  const type = CONVERTER_TYPE[quality];
  if (type === undefined) throw new RangeError(`Unknown resampler quality '${String(quality)}'`);
  return type;
}

/**
 * A mono converter from `inputRate` to `outputRate` Hz with a clear state: an idle one
 * re-initialised (about 0.1 ms) or a new one (10-40 ms, plus the package load the first time).
 */
export async function acquireWasmResampler(
  inputRate: number,
  outputRate: number,
  quality: ResamplerQuality,
): Promise<WasmResampler> {
  const type = converterTypeOf(quality);
  const reused = idle.pop();
  if (reused) {
    reconfigure(reused, inputRate, outputRate, type);
    return reused;
  }
  const lib = await loadLibrary();
  return lib.create(1, inputRate, outputRate, { converterType: type });
}

/** Gives a converter back for reuse (or destroys it when the pool is full). Call once. */
export function releaseWasmResampler(src: WasmResampler): void {
  if (idle.length < MAX_IDLE_RESAMPLERS && !idle.includes(src)) idle.push(src);
  else if (!idle.includes(src)) src.destroy();
}

/** Clears a converter's state (filter history, pending output) keeping its rates. */
export function resetWasmResampler(src: WasmResampler): void {
  // biome-ignore lint/correctness/noSelfAssign: the package's setter re-initialises the converter.
  src.converterType = src.converterType;
}

/** Idle converters in the pool now (for tests and stats). */
export function idleResamplerCount(): number {
  return idle.length;
}

/**
 * Loads the resampler package and fills the pool with `instances` converters (default 1,
 * at most {@link MAX_IDLE_RESAMPLERS}), so the next streams that need resampling start in
 * about 0.1 ms. Blocks the event loop for the load (about 150 ms) and 10-40 ms per converter:
 * call it at warm-up, not on the hot path.
 */
export async function preloadResampler(options: { instances?: number } = {}): Promise<void> {
  const want = Math.min(Math.max(options.instances ?? 1, 0), MAX_IDLE_RESAMPLERS);
  const lib = await loadLibrary();
  while (idle.length < want) {
    idle.push(await lib.create(1, 24000, 8000, { converterType: CONVERTER_TYPE['sinc-fastest'] }));
  }
}

function reconfigure(src: WasmResampler, inputRate: number, outputRate: number, type: number): void {
  let reinitialised = false;
  if (src.converterType !== type) {
    src.converterType = type;
    reinitialised = true;
  }
  if (src.inputSampleRate !== inputRate) {
    src.inputSampleRate = inputRate;
    reinitialised = true;
  }
  if (src.outputSampleRate !== outputRate) {
    src.outputSampleRate = outputRate;
    reinitialised = true;
  }
  if (!reinitialised) resetWasmResampler(src);
  src.ratio = outputRate / inputRate;
}
