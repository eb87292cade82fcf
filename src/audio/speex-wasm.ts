/**
 * The Speex resampler (SpeexDSP's `resample.c`, the resampler of VoIP stacks) compiled to
 * WebAssembly, from `@echogarden/speex-resampler-wasm` (its SIMD build). One module instance
 * serves the whole process: its heap (16 MB reserved once, grown only if needed) holds the state
 * of every resampler (1-3 KB each) and one shared I/O area. The package is imported on first use,
 * so `import 'voxroute'` does not load it.
 *
 * C API used (speex/speex_resampler.h): `speex_resampler_init(channels, in_rate, out_rate,
 * quality, *err)`, `speex_resampler_process_float(st, channel, *in, *in_len, *out, *out_len)`
 * (on return `*in_len` and `*out_len` hold what was consumed and produced),
 * `speex_resampler_process_int(st, channel, *in, *in_len, *out, *out_len)` (the same on signed
 * 16-bit samples: in this float build it widens them to floats at their integer scale, runs the
 * same filter, and rounds the output to the nearest integer, clamped to -32768..32767),
 * `speex_resampler_skip_zeros` (drops the filter's initial delay so output aligns with input),
 * `speex_resampler_reset_mem`, `speex_resampler_destroy`.
 */

/** The exports of the Emscripten module voxroute uses (pointers are byte offsets in the heap). */
export interface SpeexModule {
  /** Views of the heap; replaced when the heap grows, so read them again after every call. */
  HEAPF32: Float32Array;
  HEAPU8: Uint8Array;
  HEAP16: Int16Array;
  HEAPU32: Uint32Array;
  HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _speex_resampler_init(
    channels: number,
    inRate: number,
    outRate: number,
    quality: number,
    err: number,
  ): number;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_reset_mem(state: number): number;
  _speex_resampler_process_float(
    state: number,
    channel: number,
    input: number,
    inLength: number,
    output: number,
    outLength: number,
  ): number;
  _speex_resampler_process_int(
    state: number,
    channel: number,
    input: number,
    inLength: number,
    output: number,
    outLength: number,
  ): number;
  _speex_resampler_destroy(state: number): void;
}

/**
 * Samples of the shared input and output buffers in the heap (each holds IO_SAMPLES floats, so
 * twice as many int16 samples; the int16 path uses IO_SAMPLES of them too).
 */
export const IO_SAMPLES = 8192;

/** The module and its shared I/O area (one per process; calls are synchronous, so sharing is safe). */
export interface Speex {
  readonly module: SpeexModule;
  /** Heap offset of IO_SAMPLES floats (or int16 samples) of input. */
  readonly input: number;
  /** Heap offset of IO_SAMPLES floats (or int16 samples) of output. */
  readonly output: number;
  /** Heap offset of two uint32: input length, output length (in samples). */
  readonly lengths: number;
  /** Heap offset of one int32: the error code of the last init. */
  readonly error: number;
}

let loading: Promise<Speex> | undefined;

/**
 * Module options of the Emscripten factory that route its `print` and `printErr` (by default
 * console.log and console.error) to nothing: when the `.wasm` file is missing, the glue
 * otherwise writes "failed to asynchronously prepare wasm: ..." and "Aborted(...)" to stderr
 * itself, in the application's output, before rejecting with the same text, which voxroute
 * reports as AudioConversionError. The module prints nothing else.
 */
const QUIET_MODULE_OPTIONS = { print: () => {}, printErr: () => {} };

/**
 * Imports and instantiates the module once (about 20-50 ms, compiled off the main thread by
 * V8); later calls return the same promise. A failed load is retried on the next call.
 */
export function loadSpeex(): Promise<Speex> {
  loading ??= import('@echogarden/speex-resampler-wasm/simd')
    .then(async ({ default: instantiate }) => {
      const module = (await instantiate({ ...QUIET_MODULE_OPTIONS })) as SpeexModule;
      const input = module._malloc(IO_SAMPLES * 4);
      const output = module._malloc(IO_SAMPLES * 4);
      const lengths = module._malloc(12);
      return { module, input, output, lengths, error: lengths + 8 };
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
