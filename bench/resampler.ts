/**
 * Resampler comparison and audio-conversion targets (issue 15, P2 and P6).
 *
 * Run: `npm run bench:resampler` (= `node scripts/run-ts.mjs bench/resampler.ts`), options:
 *   --seconds N   audio per speed run, in s                     (default 10)
 *   --streams N   concurrent converters for the memory figures  (default 1000)
 *   --json        also print the results as one JSON line
 *
 * Part 1 compares the candidates side by side in one run (each in a fresh child process, so
 * that its first create() and memory include loading it), for 24 kHz -> 16 kHz and
 * 24 kHz -> 8 kHz, on Float32 samples:
 * - quality: SNR of a logarithmic swept sine (100 Hz to 80% of the new Nyquist, peak 0.5)
 *   against the same sweep computed at the output rate (best integer lag within +-50 samples,
 *   0.1 s trimmed at each end); passband ripple (max - min gain in dB of 24 tones from 100 Hz
 *   to 80% of the new Nyquist, Hann-weighted single-bin DFT); aliasing (worst output RMS
 *   relative to input RMS, in dB, of 16 tones from 1.05 x the new Nyquist to 0.98 x the old
 *   one: all of it is alias);
 * - speed: CPU time (process.cpuUsage) to stream `--seconds` of audio in 20 ms chunks, best of 5,
 *   as x real time;
 * - creation: the first create() (loading the package, building tables) and the median of the
 *   next ones;
 * - memory: V8 heap + external memory (after gc) of `--streams` live streams (each has taken
 *   100 ms of audio), per stream, the one-time cost of the first stream included;
 * - held back: output the filter keeps after 1 s of input, until more input or the end (ms);
 * - chunking: whether the output for random chunk sizes is bit-identical to the output for
 *   20 ms chunks.
 * The two "on PCM s16le" rows run the shipped Resampler on 16-bit samples (the input rounded to
 * 16 bits, so their SNR includes 16-bit quantisation, about 92 dB for this sweep): the float
 * path (decode, process, encode) and Speex's int16 path (processEncoded), whose speed runs feed
 * s16le bytes.
 * Part 2 checks the targets on the shipped path, `createAudioConverter()` (PCM s16le in,
 * decode + resample + encode), and prints met / not met for each.
 */

import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAudioConverter } from '../src/audio/audio-converter.js';
import { encodeFromFloat32 } from '../src/audio/pcm-codec.js';
import { SampleFramer } from '../src/audio/sample-framer.js';
import { loadSpeex } from '../src/audio/speex-wasm.js';
import type { AudioFormat } from '../src/types/audio.js';
import { benchArgs } from './args.js';
import {
  type Candidate,
  join,
  libsamplerate,
  type ResamplerStream,
  speexS16,
  speexWasm,
  voxroutePolyphase,
} from './resampler/candidates.js';
import { summarize } from './stats.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const args = benchArgs(import.meta.url, {
  seconds: { type: 'string', default: '10' },
  streams: { type: 'string', default: '1000' },
  json: { type: 'boolean', default: false },
  // Internal: run one part in this (child) process and print its result as JSON.
  part: { type: 'string' },
});
const SECONDS = Number(args.seconds);
const STREAMS = Number(args.streams);
const PAIRS = [
  [24000, 16000],
  [24000, 8000],
] as const;

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Resolves after the timers due now have run. */
function afterTimers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

function memoryBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function stream(r: ResamplerStream, input: Float32Array, sizes: readonly number[]): Float32Array {
  const parts: Float32Array[] = [];
  let at = 0;
  for (let i = 0; at < input.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, input.length - at);
    parts.push(r.process(input.subarray(at, at + n)));
    at += n;
  }
  parts.push(r.flush());
  return join(parts);
}

/** Logarithmic sweep from f0 to f1 Hz over `seconds`, sampled at `rate`, peak `amplitude`. */
function sweep(f0: number, f1: number, seconds: number, rate: number, amplitude: number): Float32Array {
  const k = Math.log(f1 / f0) / seconds;
  return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => {
    const t = i / rate;
    return amplitude * Math.sin(((2 * Math.PI * f0) / k) * (Math.exp(k * t) - 1));
  });
}

function tone(hz: number, rate: number, n: number, amplitude: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
}

function snrDb(want: Float32Array, got: Float32Array, from: number, to: number): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let lag = -50; lag <= 50; lag++) {
    let s = 0;
    let e = 0;
    for (let i = from; i < to; i++) {
      const w = want[i]!;
      const g = got[i + lag] ?? 0;
      s += w * w;
      e += (w - g) ** 2;
    }
    best = Math.max(best, 10 * Math.log10(s / e));
  }
  return best;
}

/** Amplitude of the `hz` component of `x` (Hann-weighted single-bin DFT). */
function amplitudeAt(x: Float32Array, hz: number, rate: number, from: number, to: number): number {
  let re = 0;
  let im = 0;
  let weight = 0;
  const n = to - from;
  for (let i = 0; i < n; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    const phase = (2 * Math.PI * hz * (from + i)) / rate;
    re += w * x[from + i]! * Math.cos(phase);
    im += w * x[from + i]! * Math.sin(phase);
    weight += w;
  }
  return (2 * Math.hypot(re, im)) / weight;
}

function rms(x: Float32Array, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! ** 2;
  return Math.sqrt(s / (to - from));
}

interface PairResult {
  pair: string;
  sweepSnrDb: number;
  rippleDb: number;
  aliasDb: number;
  xRealTime: number;
  chunkingInvariant: boolean;
  /** Output held back after 1 s of input, until more input or the end, in ms. */
  heldMs: number;
}

interface CandidateResult {
  name: string;
  installed: boolean;
  firstCreateMs?: number;
  /** Longest event-loop block while the first create() ran. */
  firstCreateBlockMs?: number;
  createUs?: number;
  /** Memory of the first stream (the package's one-time cost included). */
  firstStreamBytes?: number;
  /** Memory of each further stream. */
  bytesPerStream?: number;
  /** Streams measured for bytesPerStream. */
  streams?: number;
  pairs: PairResult[];
}

async function quality(
  c: Candidate,
  from: number,
  to: number,
): Promise<Omit<PairResult, 'xRealTime' | 'pair'>> {
  const nyquist = Math.min(from, to) / 2;
  const top = 0.8 * nyquist;
  const s = await c.create(from, to);
  const got = stream(s, sweep(100, top, 2, from, 0.5), [480]);
  s.close();
  const want = sweep(100, top, 2, to, 0.5);
  const sweepSnrDb = snrDb(want, got, Math.round(0.1 * to), Math.round(1.9 * to));
  const gains: number[] = [];
  for (let i = 0; i < 24; i++) {
    const hz = 100 + ((top - 100) * i) / 23;
    const r = await c.create(from, to);
    const out = stream(r, tone(hz, from, Math.round(0.3 * from), 0.5), [480]);
    r.close();
    gains.push(20 * Math.log10(amplitudeAt(out, hz, to, Math.round(0.05 * to), Math.round(0.25 * to)) / 0.5));
  }
  let aliasDb = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 16; i++) {
    const hz = 1.05 * nyquist + ((0.98 * (from / 2) - 1.05 * nyquist) * i) / 15;
    const r = await c.create(from, to);
    const out = stream(r, tone(hz, from, Math.round(0.3 * from), 0.5), [480]);
    r.close();
    aliasDb = Math.max(
      aliasDb,
      20 * Math.log10(rms(out, Math.round(0.05 * to), Math.round(0.25 * to)) / (0.5 / Math.SQRT2)),
    );
  }
  const input = sweep(100, 0.95 * (from / 2), 0.5, from, 0.9);
  const a = await c.create(from, to);
  const reference = stream(a, input, [480]);
  a.close();
  const b = await c.create(from, to);
  const cut = stream(b, input, [1, 7, 333, 2, 1000, 97, 64]);
  b.close();
  const chunkingInvariant =
    reference.length === cut.length &&
    Buffer.compare(Buffer.from(reference.buffer), Buffer.from(cut.buffer)) === 0;
  const h = await c.create(from, to);
  const heldMs = ((to - h.process(new Float32Array(from)).length) / to) * 1000;
  h.close();
  return {
    sweepSnrDb,
    rippleDb: Math.max(...gains) - Math.min(...gains),
    aliasDb,
    chunkingInvariant,
    heldMs,
  };
}

async function speed(c: Candidate, from: number, to: number): Promise<number> {
  const input = sweep(100, 0.45 * from, SECONDS, from, 0.5);
  const bytes = encodeFromFloat32(input, 'pcm_s16le');
  const chunk = from / 50;
  let best = Number.POSITIVE_INFINITY;
  for (let rep = 0; rep < 5; rep++) {
    const s = await c.create(from, to);
    best = Math.min(
      best,
      cpuMs(() => {
        if (s.processS16)
          for (let at = 0; at < input.length; at += chunk)
            s.processS16(bytes.subarray(at * 2, (at + chunk) * 2));
        else for (let at = 0; at < input.length; at += chunk) s.process(input.subarray(at, at + chunk));
        s.flush();
      }),
    );
    s.close();
  }
  return (SECONDS * 1000) / best;
}

async function measure(c: Candidate): Promise<CandidateResult> {
  const result: CandidateResult = { name: c.name, installed: true, pairs: [] };
  // Creation and memory first, in a process where nothing of this candidate is loaded yet.
  const before = memoryBytes();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t0 = performance.now();
  let first: ResamplerStream;
  try {
    first = await c.create(24000, 16000);
  } catch (error) {
    if (['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'].includes((error as { code?: string }).code ?? ''))
      return { ...result, installed: false };
    throw error;
  }
  result.firstCreateMs = performance.now() - t0;
  await afterTimers(); // the histogram records a block when its timer finally runs
  loop.disable();
  result.firstCreateBlockMs = loop.max / 1e6;
  const chunk = new Float32Array(2400).fill(0.25); // 100 ms
  first.process(chunk);
  const afterFirst = memoryBytes();
  result.firstStreamBytes = afterFirst - before;
  const count = c.name.startsWith('libsamplerate') ? 10 : STREAMS; // libsamplerate-js reserves about 26 MB each
  const live: ResamplerStream[] = [first];
  const times: number[] = [];
  const heapBefore = c.heapProbe?.() ?? 0;
  for (let i = 1; i < count; i++) {
    const t = performance.now();
    const s = await c.create(24000, 16000);
    times.push((performance.now() - t) * 1000);
    s.process(chunk);
    live.push(s);
  }
  result.createUs = summarize(times).median;
  const inHeap = c.heapProbe ? c.heapProbe() - heapBefore - 16 : 0;
  result.bytesPerStream = (memoryBytes() - afterFirst + inHeap) / (count - 1);
  result.streams = count;
  for (const s of live) s.close();
  live.length = 0;
  for (const [from, to] of PAIRS) {
    const q = await quality(c, from, to);
    result.pairs.push({ pair: `${from / 1000}k->${to / 1000}k`, ...q, xRealTime: await speed(c, from, to) });
  }
  return result;
}

// ---- Part 2: targets on the shipped path (createAudioConverter) ----

interface Target {
  name: string;
  value: string;
  met: boolean;
}

async function converterSpeed(to: AudioFormat): Promise<number> {
  const from: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
  const bytes = encodeFromFloat32(sweep(100, 10800, SECONDS, 24000, 0.5), 'pcm_s16le');
  let best = Number.POSITIVE_INFINITY;
  for (let rep = 0; rep < 5; rep++) {
    const conv = await createAudioConverter(from, to);
    best = Math.min(
      best,
      cpuMs(() => {
        for (let at = 0; at < bytes.byteLength; at += 960) conv.push(bytes.subarray(at, at + 960));
        conv.flush();
      }),
    );
    conv.close();
  }
  return (SECONDS * 1000) / best;
}

async function targets(): Promise<Target[]> {
  const pcm24k: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
  const pcm16k: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
  const mulaw8k: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
  const out: Target[] = [];

  // Creation and memory first, while the resampler is not loaded: the overall figure includes
  // the one-time costs (the WebAssembly module and its heap, the mu-law table).
  const before = memoryBytes();
  const live = [];
  const times: number[] = [];
  const hundredMs = encodeFromFloat32(sweep(100, 10000, 0.1, 24000, 0.5), 'pcm_s16le');
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  for (let i = 0; i < STREAMS; i++) {
    const t = performance.now();
    const conv = await createAudioConverter(pcm24k, i % 2 === 0 ? pcm16k : mulaw8k);
    times.push((performance.now() - t) * 1000);
    if (i === 0) {
      await afterTimers();
      loop.disable();
    }
    conv.push(hundredMs);
    live.push(conv);
  }
  const overall = (memoryBytes() - before) / STREAMS;
  // What one more costs: 1000 more on top, in process memory and in the WebAssembly heap
  // (reserved ahead, so process memory does not show it; probed with an allocation before and
  // after, the allocator handing out heap in order).
  const { module: speex } = await loadSpeex();
  const mid = memoryBytes();
  const heapBefore = speex._malloc(16);
  for (let i = 0; i < 1000; i++) {
    const conv = await createAudioConverter(pcm24k, i % 2 === 0 ? pcm16k : mulaw8k);
    conv.push(hundredMs);
    live.push(conv);
  }
  const marginal = (memoryBytes() - mid + (speex._malloc(16) - heapBefore - 16)) / 1000;
  for (const conv of live) conv.close();
  const later = summarize(times.slice(1));
  out.push({
    name: 'P2 a converter costs <= 100 KB',
    value: `${(marginal / 1024).toFixed(1)} KB`,
    met: marginal <= 100 * 1024,
  });
  out.push({
    name: 'P2 creating a converter after the first <= 0.1 ms',
    value: `${(later.median / 1000).toFixed(4)} ms median, ${(later.p99 / 1000).toFixed(4)} ms p99`,
    met: later.median <= 100,
  });
  out.push({
    name: '(info) the first converter, loading the resampler',
    value: `${(times[0]! / 1000).toFixed(1)} ms, event loop blocked ${(loop.max / 1e6).toFixed(1)} ms at most`,
    met: true,
  });
  out.push({
    name: `P6 ${STREAMS} concurrent converted streams <= 50 KB per stream overall`,
    value: `${(overall / 1024).toFixed(1)} KB`,
    met: overall <= 50 * 1024,
  });

  // Pass-through: what the STT path does per chunk when no conversion is needed.
  const framer = new SampleFramer(pcm24k);
  const pass = await createAudioConverter(pcm24k, pcm24k);
  const chunk = new Uint8Array(960);
  const N = 200_000;
  let best = Number.POSITIVE_INFINITY;
  for (let rep = 0; rep < 5; rep++) {
    best = Math.min(
      best,
      cpuMs(() => {
        for (let i = 0; i < N; i++) pass.push(framer.push(chunk));
      }),
    );
  }
  const passUs = (best * 1000) / N;
  out.push({
    name: 'P2 CPU per passed-through chunk <= 2 µs (SampleFramer + converter)',
    value: `${passUs.toFixed(3)} µs`,
    met: passUs <= 2,
  });

  const x16 = await converterSpeed(pcm16k);
  out.push({ name: 'P2 24k -> 16k PCM >= 1000x real time', value: `${x16.toFixed(0)}x`, met: x16 >= 1000 });
  const x8 = await converterSpeed(mulaw8k);
  out.push({ name: 'P2 24k -> mu-law 8k >= 1000x real time', value: `${x8.toFixed(0)}x`, met: x8 >= 1000 });
  return out;
}

const CANDIDATES = [
  libsamplerate(),
  speexWasm(3),
  speexWasm(5),
  speexS16('float'),
  speexS16('int16'),
  voxroutePolyphase('sinc-fastest'),
  voxroutePolyphase('sinc-medium'),
];

/** Runs `--part part` of this script in a fresh process and returns the JSON it prints last. */
async function inChild<T>(part: string): Promise<T> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'scripts/run-ts.mjs',
      process.argv[1]!,
      '--part',
      part,
      '--seconds',
      String(SECONDS),
      '--streams',
      String(STREAMS),
    ],
    { maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

if (args.part !== undefined) {
  const result = args.part === 'targets' ? await targets() : await measure(CANDIDATES[Number(args.part)]!);
  console.log(JSON.stringify(result));
} else {
  console.log(
    `Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `Each candidate in a fresh process; speed: CPU time, best of 5 runs of ${SECONDS} s of audio in 20 ms chunks.\n`,
  );
  console.log(
    '| Resampler | first create: ms (longest event-loop block) | next creates (median) | memory: first stream + each further | 24k->16k: sweep SNR, ripple, alias, speed, held back | 24k->8k: same | chunking |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const results: CandidateResult[] = [];
  for (let i = 0; i < CANDIDATES.length; i++) {
    const r = await inChild<CandidateResult>(String(i));
    results.push(r);
    if (!r.installed) {
      console.log(`| ${r.name} | not installed | | | | | |`);
      continue;
    }
    const pairs = r.pairs.map(
      (p) =>
        `${p.sweepSnrDb.toFixed(1)} dB, ${p.rippleDb.toFixed(3)} dB, ${p.aliasDb.toFixed(1)} dB, ${p.xRealTime.toFixed(0)}x, ${p.heldMs.toFixed(2)} ms`,
    );
    const exact = r.pairs.every((p) => p.chunkingInvariant) ? 'bit-exact' : 'differs';
    console.log(
      `| ${r.name} | ${r.firstCreateMs!.toFixed(1)} (${r.firstCreateBlockMs!.toFixed(1)}) | ${r.createUs!.toFixed(1)} µs | ${kb(r.firstStreamBytes!)} KB + ${kb(r.bytesPerStream!)} KB (${r.streams} streams) | ${pairs[0]} | ${pairs[1]} | ${exact} |`,
    );
  }
  console.log('\nTargets (createAudioConverter, PCM s16le 24 kHz in, 20 ms chunks, fresh process):');
  const t = await inChild<Target[]>('targets');
  for (const target of t)
    console.log(`  ${target.name.padEnd(66)} ${target.value.padEnd(34)} ${target.met ? 'met' : 'NOT met'}`);
  if (args.json) console.log(JSON.stringify({ results, targets: t }));
}
