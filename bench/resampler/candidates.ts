/**
 * The resamplers compared by bench/resampler.ts, behind one streaming interface:
 * `@alexanderolsen/libsamplerate-js` (what voxroute used before; no longer a dependency, so it
 * is measured only when installed, the bench prints "not installed" otherwise), the Speex
 * resampler in WebAssembly (`@echogarden/speex-resampler-wasm`, what voxroute uses now) at
 * several quality levels, and a Kaiser-windowed sinc polyphase resampler in plain TypeScript
 * written for this comparison (./js-polyphase/).
 */
import { decodeToFloat32, encodeFromFloat32 } from '../../src/audio/pcm-codec.js';
import { Resampler } from '../../src/audio/resampler.js';
import { IO_SAMPLES, loadSpeex, type SpeexModule } from '../../src/audio/speex-wasm.js';
import { Resampler as JsPolyphaseResampler } from './js-polyphase/resampler.js';

/** One stream through a resampler, with voxroute's contract: aligned output, exact total. */
export interface ResamplerStream {
  process(input: Float32Array): Float32Array;
  /** The rest, so that the total is round(N x out / in); the stream is then over. */
  flush(): Float32Array;
  close(): void;
  /**
   * For candidates on PCM s16le: the next whole samples as s16le bytes, resampled, as s16le
   * bytes (the speed run uses it instead of process(), on the same audio rounded to 16 bits).
   */
  processS16?(bytes: Uint8Array): Uint8Array;
}

export interface Candidate {
  readonly name: string;
  /** Loads what the candidate needs once (its first create() pays for this). */
  create(inputRate: number, outputRate: number): Promise<ResamplerStream>;
  /**
   * For WebAssembly candidates whose heap is reserved ahead (so that process memory does not
   * show what a stream takes in it): the heap offset of a fresh 16-byte allocation. The
   * allocator hands out heap in order, so the difference of two probes is what was allocated
   * in between.
   */
  heapProbe?(): number;
}

/** Concatenation of `parts`, cut to `length`. */
export function join(
  parts: readonly Float32Array[],
  length = parts.reduce((n, p) => n + p.length, 0),
): Float32Array {
  const out = new Float32Array(length);
  let at = 0;
  for (const p of parts) {
    if (at >= length) break;
    const take = p.subarray(0, Math.min(p.length, length - at));
    out.set(take, at);
    at += take.length;
  }
  return out;
}

/**
 * Gives a third-party resampler (whose output is already aligned with its input) voxroute's
 * contract: at the end, silence is fed until the total is round(N x out / in).
 */
function exact(
  run: (input: Float32Array) => Float32Array,
  inputRate: number,
  outputRate: number,
  close: () => void,
): ResamplerStream {
  let inputFrames = 0;
  let produced = 0;
  return {
    process(input) {
      inputFrames += input.length;
      const out = run(input);
      produced += out.length;
      return out;
    },
    flush() {
      const need = Math.round((inputFrames * outputRate) / inputRate) - produced;
      const parts: Float32Array[] = [];
      let have = 0;
      for (let round = 0; have < need && round < 64; round++) {
        const out = run(new Float32Array(1024));
        parts.push(out);
        have += out.length;
      }
      return join(parts, Math.max(need, 0));
    },
    close,
  };
}

/** The Kaiser-windowed sinc polyphase resampler in plain TypeScript (./js-polyphase/). */
export function voxroutePolyphase(quality: 'sinc-fastest' | 'sinc-medium' | 'sinc-best'): Candidate {
  return {
    name: `voxroute polyphase JS (${quality})`,
    async create(inputRate, outputRate) {
      return JsPolyphaseResampler.createSync(inputRate, outputRate, { quality });
    },
  };
}

interface LibSampleRate {
  create(
    channels: number,
    inputRate: number,
    outputRate: number,
    options: { converterType: number },
  ): Promise<{ full(input: Float32Array): Float32Array; destroy(): void }>;
}

/** libsamplerate-js (wasm2js build), SRC_SINC_FASTEST: what voxroute used before. */
export function libsamplerate(): Candidate {
  let lib: Promise<LibSampleRate> | undefined;
  return {
    name: 'libsamplerate-js 2.1.2 sinc-fastest (before)',
    async create(inputRate, outputRate) {
      // Not a dependency any more: loaded when installed (`npm i --no-save @alexanderolsen/libsamplerate-js@2.1.2`).
      const specifier = '@alexanderolsen/libsamplerate-js';
      lib ??= import(specifier).then((m) => {
        const mod = m as unknown as LibSampleRate & { default?: LibSampleRate };
        return typeof mod.create === 'function' ? mod : mod.default!;
      });
      const src = await (await lib).create(1, inputRate, outputRate, { converterType: 2 });
      // libsamplerate's output is already aligned with its input (its full API has no latency).
      return exact(
        (x) => src.full(x),
        inputRate,
        outputRate,
        () => src.destroy(),
      );
    },
  };
}

/** SpeexDSP's resampler as WebAssembly (the module voxroute ships), at a Speex quality 0..10 (VoIP: 3). */
export function speexWasm(quality: number): Candidate {
  let loaded: SpeexModule | undefined;
  return {
    name: `speex-resampler-wasm 0.3.0 SIMD (quality ${quality})`,
    heapProbe: () => loaded!._malloc(16),
    async create(inputRate, outputRate) {
      const { module: m, input, output, lengths, error } = await loadSpeex();
      loaded = m;
      const state = m._speex_resampler_init(1, inputRate, outputRate, quality, error);
      // skip_zeros aligns the output with the input (drops the filter's half length).
      m._speex_resampler_skip_zeros(state);
      const run = (x: Float32Array): Float32Array => {
        const parts: Float32Array[] = [];
        for (let at = 0; at < x.length; ) {
          const n = Math.min(IO_SAMPLES, x.length - at);
          m.HEAPF32.set(x.subarray(at, at + n), input >> 2);
          m.HEAPU32[lengths >> 2] = n;
          m.HEAPU32[(lengths >> 2) + 1] = IO_SAMPLES;
          m._speex_resampler_process_float(state, 0, input, lengths, output, lengths + 4);
          at += m.HEAPU32[lengths >> 2]!;
          const got = m.HEAPU32[(lengths >> 2) + 1]!;
          parts.push(m.HEAPF32.slice(output >> 2, (output >> 2) + got));
        }
        return parts.length === 1 ? parts[0]! : join(parts);
      };
      return exact(run, inputRate, outputRate, () => m._speex_resampler_destroy(state));
    },
  };
}

const s16 = (x: Float32Array) => encodeFromFloat32(x, 'pcm_s16le');
const f32 = (bytes: Uint8Array) => decodeToFloat32(bytes, 'pcm_s16le');

/**
 * The shipped Resampler on PCM s16le (Speex quality 3): input rounded to 16 bits, output read
 * back as floats (s / 32768) for the quality figures. `'int16'` is `processEncoded`, Speex's
 * int16 path (what converted chunks take now); `'float'` decodes to floats, runs `process` and
 * encodes the result (the float path converted chunks took before, same arithmetic, plus the
 * copies of this wrapper).
 */
export function speexS16(path: 'int16' | 'float'): Candidate {
  let loaded: SpeexModule | undefined;
  return {
    name: `Speex quality 3 on PCM s16le, ${path} path`,
    heapProbe: () => loaded!._malloc(16),
    async create(inputRate, outputRate) {
      loaded = (await loadSpeex()).module;
      const r = await Resampler.create(inputRate, outputRate);
      const processS16 =
        path === 'int16'
          ? (bytes: Uint8Array) => r.processEncoded(bytes, 'pcm_s16le', 'pcm_s16le')
          : (bytes: Uint8Array) => s16(r.process(f32(bytes)));
      return {
        process: (x) => f32(processS16(s16(x))),
        processS16,
        flush: () => f32(s16(r.flush())),
        close: () => r.close(),
      };
    },
  };
}
