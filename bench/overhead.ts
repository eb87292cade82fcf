/**
 * Router overhead benchmark (issue 3, DESIGN.md "Performance targets"; issue 15, P1): what
 * `router.tts()` and `router.chat()` add to time to first chunk (TTFC: first audio, first
 * text delta) and to CPU per chunk, against a direct undici `request()` to the same loopback
 * server. P1: the median of the per-pair differences <= 0.1 ms and their p99 <= 0.5 ms, for
 * tts() and for chat().
 *
 * Run: `npm run bench` (= `node scripts/run-ts.mjs bench/overhead.ts`), options:
 *   --pairs N      measured (direct, routed) pairs for TTFC, each of tts() and chat() (default 2000)
 *   --warmup N     pairs run first and not recorded                 (default 300)
 *   --streams N    long streams per side for CPU per chunk          (default 200)
 *   --server M     'child' (own process, default) or 'inline' (this process)
 *   --dist         load voxroute from the built dist/index.js (run `npm run build` first)
 *   --lib PATH     load voxroute from this ESM build instead (e.g. an esbuild bundle of a commit)
 *   --threads      (Linux) diagnostic: per TTFC window, the main thread's wait for a CPU and the
 *                  CPU of the process's other threads (V8's compiler and GC helpers), from
 *                  /proc/self/task/<tid>/schedstat, read outside the timed windows
 *   --json         also print the results as one JSON line
 *
 * By default voxroute runs from src/ through jiti (no build needed), which is handy while
 * working on the router but not the figure to quote: jiti rewrites each module into
 * CommonJS-style code that reads every imported binding through an interop object
 * (`(0, _mod.fn)(...)`), and measured on the same machine the routed call then costs some
 * 80-100 µs more CPU than from the built package. `--dist` measures the built package (dist/index.js, as users get it): the
 * numbers in docs/benchmarks.md are from it.
 *
 * Method. One router, created once, with one OpenAI-compatible provider whose TTS answers
 * `response_format: 'pcm'` at 24 000 Hz; the caller asks for PCM s16le 24 000 Hz, so the
 * audio path is a pass-through (no conversion). Its warmup() opens the connection first.
 * Direct calls use an undici Agent of their own with keep-alive, and send the same JSON body.
 * Calls alternate direct/routed (the order flips every pair). Each TTFC is measured with
 * performance.now() from just before the call to the first chunk in hand; every response is
 * then read to its end. CPU: process.cpuUsage() (user + system) from the call to the end of
 * the body; for long streams (1 MB of PCM in 4800-byte chunks), the median over pairs of
 * (routed - direct) CPU is divided by the chunks the router delivered per stream. With
 * `--server child` the server's CPU is not in this process, so the figures are the client's
 * alone. Medians come from the per-pair differences too, which cancel the slow drift of a
 * shared machine's load better than a difference of two medians.
 *
 * Diagnostic (not a target): a PerformanceObserver records every garbage collection; each TTFC
 * section also prints how many pairs had one inside the routed or the direct TTFC window, and
 * the p99 of the per-pair differences of the other pairs, to tell a collection's pause from
 * the router's own tail. The P1 verdicts use every pair. Two more diagnostics (session 8): the CPU of
 * the whole process inside each TTFC window (process.cpuUsage() read once more right after the
 * first chunk, outside the timed window: every thread, so V8's background compiler and GC
 * helpers too), and the p99 of the per-pair differences in blocks of 500 pairs in call order (a
 * tail that falls over the run is the JIT warming up). With `--threads`, per window: the main
 * thread's wait for a CPU and the other threads' CPU (see bench/thread-clock.ts).
 *
 * Anchor (a reference, not a target): the same number of pairs of two identical direct undici
 * requests, each on its own keep-alive Agent (as the router has its own connection),
 * interleaved the same way (the order flips every pair), in blocks of 100 pairs alternated
 * with the measured pairs' blocks so both see the same load. The p99 of their per-pair
 * differences is printed next to each P1 p99 verdict: the floor this machine and load put
 * under that figure, whatever the client.
 */
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import type { AudioFormat, Router } from 'voxroute';
import { benchArgs } from './args.js';
import {
  CHAT_EVENTS,
  CHAT_TEXT,
  LONG_ANSWER,
  LONG_VOICE,
  type PcmServer,
  SHORT_ANSWER,
  startPcmServer,
  startPcmServerProcess,
} from './pcm-server.js';
import { fmt, type Summary, summarize } from './stats.js';
import { openThreadClock, type ThreadReading } from './thread-clock.js';

const args = benchArgs(import.meta.url, {
  pairs: { type: 'string', default: '2000' },
  warmup: { type: 'string', default: '300' },
  streams: { type: 'string', default: '200' },
  server: { type: 'string', default: 'child' },
  dist: { type: 'boolean', default: false },
  lib: { type: 'string' },
  json: { type: 'boolean', default: false },
  threads: { type: 'boolean', default: false },
});
const PAIRS = positiveInt(args.pairs, 'pairs');
const WARMUP = positiveInt(args.warmup, 'warmup');
const STREAMS = positiveInt(args.streams, 'streams');
const SERVER_MODE = args.server === 'inline' ? 'inline' : 'child';
const HERE = dirname(fileURLToPath(import.meta.url));
const LIB = args.lib ?? (args.dist ? resolve(HERE, '../dist/index.js') : undefined);
const voxroute: typeof import('voxroute') = LIB
  ? await import(pathToFileURL(resolve(LIB)).href)
  : await import('voxroute');
const { createRouter, defineConfig } = voxroute;
/** The whole benchmark stops measuring after this long, whatever the counts (ms). */
const BUDGET_MS = 180_000;

const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const TEXT = 'Your table is booked for seven thirty.';
const MODEL = 'bench-tts';
const SHORT_BYTES = SHORT_ANSWER.chunkBytes * SHORT_ANSWER.chunks;
const LONG_BYTES = LONG_ANSWER.chunkBytes * LONG_ANSWER.chunks;
const CHAT_MODEL = 'bench-chat';
const CHAT_BYTES = Buffer.byteLength(CHAT_EVENTS.join(''));
const CHAT_MESSAGES = [{ role: 'user' as const, content: 'Is my table booked?' }];

/** Per-thread readings for `--threads` (undefined without it or off Linux). */
const threadClock = args.threads ? openThreadClock() : undefined;
if (args.threads && !threadClock) console.error('--threads: no /proc/self/task here, ignored');
const NO_THREADS: ThreadReading = { mainRunNs: 0, mainWaitNs: 0, othersRunNs: 0 };
/** A reading of {@link threadClock}, or zeros without it. */
function threads(): ThreadReading {
  return threadClock ? threadClock.read() : NO_THREADS;
}

/**
 * Garbage collections seen during the run, as [start, end] in performance.now() ms: to tell
 * which TTFC windows a collection paused (a diagnostic beside the P1 figures, which stay the
 * per-pair differences of every pair).
 */
const gcs: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ['gc'] });

/** True when a garbage collection overlapped the sample's TTFC window. */
function pausedByGc(s: Sample): boolean {
  const end = s.startMs + s.ttfcMs;
  return gcs.some(([from, to]) => from < end && to > s.startMs);
}

function positiveInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${value}`);
  return n;
}

/** One measured call. */
interface Sample {
  /** Time to first chunk in ms. */
  ttfcMs: number;
  /** performance.now() at the call (the TTFC window is [startMs, startMs + ttfcMs]). */
  startMs: number;
  /** CPU (user + system) of this process from the call to the end of the body, in µs. */
  cpuUs: number;
  /** CPU of this process (every thread) inside the TTFC window, in µs (a diagnostic). */
  windowCpuUs: number;
  /** `--threads`: ns the main thread waited for a CPU inside the TTFC window (else 0). */
  mainWaitNs: number;
  /** `--threads`: ns of CPU of the process's other threads inside the TTFC window (else 0). */
  othersRunNs: number;
  bytes: number;
  chunks: number;
}

/** The speech server, inline or in a child process. */
function startUpstream(): Promise<PcmServer> {
  return SERVER_MODE === 'inline' ? startPcmServer() : startPcmServerProcess();
}

/**
 * The diagnostics of a TTFC window that started at `cpu0` / `th0`, read right after its first
 * chunk (after the TTFC is taken, so they add nothing to it).
 */
function windowOf(
  cpu0: NodeJS.CpuUsage,
  th0: ThreadReading,
): Pick<Sample, 'windowCpuUs' | 'mainWaitNs' | 'othersRunNs'> {
  const cpu = process.cpuUsage(cpu0);
  const th1 = threads();
  return {
    windowCpuUs: cpu.user + cpu.system,
    mainWaitNs: th1.mainWaitNs - th0.mainWaitNs,
    othersRunNs: th1.othersRunNs - th0.othersRunNs,
  };
}

/** Direct path: undici `request()` on a keep-alive Agent, the same JSON body as the adapter's. */
function directCaller(origin: string) {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    pipelining: 1,
    connect: { keepAlive: true },
  });
  const url = `${origin}/v1/audio/speech`;
  const headers = { 'content-type': 'application/json', accept: 'application/octet-stream' };
  const chatUrl = `${origin}/v1/chat/completions`;
  const chatHeaders = { 'content-type': 'application/json', accept: 'text/event-stream' };
  /**
   * One POST read to its end: TTFC is the first body chunk in hand. The clocks start before
   * the body is serialized (`body()`), as the routed call's start before its request is built.
   */
  const post = async (
    what: string,
    target: string,
    head: Record<string, string>,
    body: () => string,
  ): Promise<Sample> => {
    const th0 = threads();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await request(target, { dispatcher: agent, method: 'POST', headers: head, body: body() });
    const it = res.body[Symbol.asyncIterator]();
    const first = await it.next();
    const ttfcMs = performance.now() - t0;
    const win = windowOf(cpu0, th0);
    if (res.statusCode !== 200 || first.done)
      throw new Error(`direct ${what} failed: status ${res.statusCode}`);
    let bytes = (first.value as Buffer).byteLength;
    let chunks = 1;
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      bytes += (r.value as Buffer).byteLength;
      chunks++;
    }
    const cpu = process.cpuUsage(cpu0);
    return { ttfcMs, startMs: t0, cpuUs: cpu.user + cpu.system, ...win, bytes, chunks };
  };
  return {
    call: (voice: string): Promise<Sample> =>
      post('call', url, headers, () =>
        JSON.stringify({ input: TEXT, voice, response_format: 'pcm', model: MODEL }),
      ),
    /** The same for chat: a streamed chat completion; TTFC is the first body chunk (the first SSE event). */
    chat: (): Promise<Sample> =>
      post('chat', chatUrl, chatHeaders, () =>
        JSON.stringify({ model: CHAT_MODEL, messages: CHAT_MESSAGES, stream: true }),
      ),
    close: () => agent.close(),
  };
}

/** Routed path: `router.tts()`, the caller asking for the provider's own format. */
function routedCaller(router: Router) {
  return {
    async call(voice: string): Promise<Sample> {
      const th0 = threads();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const stream = router.tts({ text: TEXT, voice, format: PCM_24K });
      const it = stream[Symbol.asyncIterator]();
      const first = await it.next();
      const ttfcMs = performance.now() - t0;
      const win = windowOf(cpu0, th0);
      if (first.done) throw new Error('routed call produced no audio');
      let bytes = first.value.data.byteLength;
      let chunks = 1;
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        bytes += r.value.data.byteLength;
        chunks++;
      }
      const cpu = process.cpuUsage(cpu0);
      return { ttfcMs, startMs: t0, cpuUs: cpu.user + cpu.system, ...win, bytes, chunks };
    },
    /** `router.chat()`: TTFC is the first event (a text delta); `bytes` counts the text's characters. */
    async chat(): Promise<Sample> {
      const th0 = threads();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const stream = router.chat({ model: 'fast', messages: CHAT_MESSAGES });
      const it = stream[Symbol.asyncIterator]();
      const first = await it.next();
      const ttfcMs = performance.now() - t0;
      const win = windowOf(cpu0, th0);
      if (first.done || first.value.type !== 'text-delta') throw new Error('routed chat gave no text first');
      let text = first.value.text;
      let chunks = 1;
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        if (r.value.type === 'text-delta') text += r.value.text;
        chunks++;
      }
      const cpu = process.cpuUsage(cpu0);
      if (text !== CHAT_TEXT) throw new Error(`routed chat: got ${JSON.stringify(text)}`);
      return { ttfcMs, startMs: t0, cpuUs: cpu.user + cpu.system, ...win, bytes: text.length, chunks };
    },
  };
}

function check(sample: Sample, expected: number, who: string): void {
  if (sample.bytes !== expected) throw new Error(`${who}: got ${sample.bytes} bytes, expected ${expected}`);
}

interface PairResults {
  direct: Sample[];
  routed: Sample[];
  /** routed - direct TTFC of each pair, ms. */
  added: number[];
  stoppedEarly: boolean;
}

/** Runs `count` interleaved pairs; the order flips every pair so neither side always goes first. */
async function runPairs(
  count: number,
  voice: { direct: string; routed: string },
  expected: number,
  direct: ReturnType<typeof directCaller>,
  routed: ReturnType<typeof routedCaller>,
  deadline: number,
): Promise<PairResults> {
  return runPairsOf(
    count,
    { call: () => direct.call(voice.direct), expected },
    { call: () => routed.call(voice.routed), expected },
    deadline,
  );
}

/** One side of a pair: the call, and the bytes (or characters) it must give. */
interface Side {
  call(): Promise<Sample>;
  expected: number;
}

/** Runs `count` interleaved (direct, routed) pairs; the order flips every pair. */
async function runPairsOf(count: number, direct: Side, routed: Side, deadline: number): Promise<PairResults> {
  const out: PairResults = { direct: [], routed: [], added: [], stoppedEarly: false };
  for (let i = 0; i < count; i++) {
    if (performance.now() > deadline) {
      out.stoppedEarly = true;
      break;
    }
    let d: Sample;
    let r: Sample;
    if (i % 2 === 0) {
      d = await direct.call();
      r = await routed.call();
    } else {
      r = await routed.call();
      d = await direct.call();
    }
    check(d, direct.expected, 'direct');
    check(r, routed.expected, 'routed');
    out.direct.push(d);
    out.routed.push(r);
    out.added.push(r.ttfcMs - d.ttfcMs);
  }
  return out;
}

/** Pairs per block of the tail-by-block diagnostic. */
const TAIL_BLOCK = 500;
/** `--threads`: a window counts as busy when the other threads ran this long in it (ns). */
const OTHERS_NS = 200_000;

/** Pairs per block in {@link runWithAnchor}. */
const ANCHOR_BLOCK = 100;

/**
 * `count` measured pairs and `count` anchor pairs, in alternating blocks of ANCHOR_BLOCK (each
 * pair interleaved as in {@link runPairsOf}), so that a change of the machine's load falls on
 * both alike. Returns [measured, anchor].
 */
async function runWithAnchor(
  count: number,
  measured: [Side, Side],
  anchor: [Side, Side],
  deadline: number,
): Promise<[PairResults, PairResults]> {
  const a: PairResults = { direct: [], routed: [], added: [], stoppedEarly: false };
  const b: PairResults = { direct: [], routed: [], added: [], stoppedEarly: false };
  for (let done = 0; done < count && !a.stoppedEarly && !b.stoppedEarly; done += ANCHOR_BLOCK) {
    const n = Math.min(ANCHOR_BLOCK, count - done);
    for (const [into, sides] of [
      [a, measured],
      [b, anchor],
    ] as const) {
      const block = await runPairsOf(n, sides[0], sides[1], deadline);
      into.direct.push(...block.direct);
      into.routed.push(...block.routed);
      into.added.push(...block.added);
      into.stoppedEarly ||= block.stoppedEarly;
    }
  }
  return [a, b];
}

/** routed - direct of `pick` for each interleaved pair. */
function pairDiffs(pairs: PairResults, pick: (s: Sample) => number): number[] {
  return pairs.routed.map((r, i) => pick(r) - pick(pairs.direct[i] as Sample));
}

/** Mean chunks the consumer received per call. */
function chunksPerCall(samples: readonly Sample[]): number {
  return samples.reduce((sum, s) => sum + s.chunks, 0) / samples.length;
}

function row(label: string, s: Summary, digits = 3): string {
  return `  ${label.padEnd(40)}${fmt(s.median, digits)}${fmt(s.p90, digits)}${fmt(s.p99, digits)}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const load = loadavg();
  const deadline = started + BUDGET_MS;
  const upstream = await startUpstream();
  const router = createRouter(
    defineConfig({
      providers: {
        local: {
          kind: 'openai-compatible',
          baseUrl: `${upstream.origin}/v1`,
          tts: {
            model: MODEL,
            voices: { agent: 'bench', [LONG_VOICE]: LONG_VOICE },
            responseFormat: 'pcm',
            sampleRate: 24_000,
          },
          chat: { models: { fast: CHAT_MODEL } },
        },
      },
      routes: { tts: { providers: ['local'] }, chat: { providers: ['local'] } },
    }),
  );
  const direct = directCaller(upstream.origin);
  const direct2 = directCaller(upstream.origin);
  const routed = routedCaller(router);
  try {
    await router.warmup();
    const served = router.tts({ text: TEXT, voice: 'agent', format: PCM_24K });
    for await (const _ of served) {
      // drain: checks the route works before measuring
    }
    const result = await served.result;
    if (result.provider !== 'local') throw new Error(`served by '${result.provider}', expected 'local'`);
    threadClock?.refresh();

    // 1. Time to first chunk, short answers; the anchor pairs (direct vs direct) in blocks
    // alternated with the measured pairs, so both see the same load.
    const ttsDirect: Side = { call: () => direct.call('bench'), expected: SHORT_BYTES };
    const ttsRouted: Side = { call: () => routed.call('agent'), expected: SHORT_BYTES };
    const ttsDirect2: Side = { call: () => direct2.call('bench'), expected: SHORT_BYTES };
    await runPairsOf(WARMUP, ttsDirect, ttsRouted, deadline);
    await runPairsOf(WARMUP, ttsDirect, ttsDirect2, deadline);
    const [ttfc, ttfcAnchor] = await runWithAnchor(
      PAIRS,
      [ttsDirect, ttsRouted],
      [ttsDirect, ttsDirect2],
      deadline,
    );

    // 2. Time to first chat delta, the same way.
    const chatDirect: Side = { call: () => direct.chat(), expected: CHAT_BYTES };
    const chatRouted: Side = { call: () => routed.chat(), expected: CHAT_TEXT.length };
    const chatDirect2: Side = { call: () => direct2.chat(), expected: CHAT_BYTES };
    await runPairsOf(WARMUP, chatDirect, chatRouted, deadline);
    await runPairsOf(WARMUP, chatDirect, chatDirect2, deadline);
    const [chat, chatAnchor] = await runWithAnchor(
      PAIRS,
      [chatDirect, chatRouted],
      [chatDirect, chatDirect2],
      deadline,
    );

    // 3. CPU per chunk, long streams.
    await runPairs(5, { direct: LONG_VOICE, routed: LONG_VOICE }, LONG_BYTES, direct, routed, deadline);
    const long = await runPairs(
      STREAMS,
      { direct: LONG_VOICE, routed: LONG_VOICE },
      LONG_BYTES,
      direct,
      routed,
      deadline,
    );

    report(
      { pairs: ttfc, anchor: ttfcAnchor },
      { pairs: chat, anchor: chatAnchor },
      long,
      performance.now() - started,
      load,
    );
  } finally {
    threadClock?.close();
    await router.close();
    await direct.close();
    await direct2.close();
    await upstream.close();
  }
}

/** The pairs of one capability's TTFC section, and its direct-vs-direct anchor pairs. */
interface TtfcRun {
  pairs: PairResults;
  anchor: PairResults;
}

/**
 * The TTFC rows of one capability, with the P1 verdicts (median and p99 of per-pair
 * differences) and, next to the p99, the anchor: the same figure for two direct requests.
 */
function ttfcSection(name: string, label: string, run: TtfcRun) {
  const { pairs } = run;
  const anchor = summarize(run.anchor.added);
  const d = summarize(pairs.direct.map((s) => s.ttfcMs));
  const r = summarize(pairs.routed.map((s) => s.ttfcMs));
  const added = summarize(pairs.added);
  const medianDiff = r.median - d.median;
  const p99Diff = r.p99 - d.p99;
  const ratio = r.median / d.median;
  const medianMet = added.median <= 0.1;
  const p99Met = added.p99 <= 0.5;
  // Diagnostic: the pairs with a garbage collection inside either TTFC window, and the tail of
  // the others (what the p99 would be without collections during the first chunk).
  const gcRouted = pairs.routed.filter(pausedByGc).length;
  const gcDirect = pairs.direct.filter(pausedByGc).length;
  const noGc = summarize(
    pairs.added.filter(
      (_, i) => !pausedByGc(pairs.routed[i] as Sample) && !pausedByGc(pairs.direct[i] as Sample),
    ),
  );
  // Diagnostics (session 8): the whole process's CPU inside the TTFC windows; the tail in blocks
  // of pairs in call order; with --threads, the windows in which other threads of the process
  // (V8's compiler, GC helpers) ran for OTHERS_NS or more.
  const winD = summarize(pairs.direct.map((s) => s.windowCpuUs));
  const winR = summarize(pairs.routed.map((s) => s.windowCpuUs));
  const winAdded = summarize(pairDiffs(pairs, (s) => s.windowCpuUs));
  const blocks: number[] = [];
  const blockMedians: number[] = [];
  for (let i = 0; i < pairs.added.length; i += TAIL_BLOCK) {
    const block = summarize(pairs.added.slice(i, i + TAIL_BLOCK));
    blocks.push(block.p99);
    blockMedians.push(block.median);
  }
  const busy = (s: Sample) => s.othersRunNs >= OTHERS_NS;
  const othersRouted = pairs.routed.filter(busy).length;
  const othersDirect = pairs.direct.filter(busy).length;
  const quietPairs = summarize(
    pairs.added.filter((_, i) => !busy(pairs.routed[i] as Sample) && !busy(pairs.direct[i] as Sample)),
  );
  const anchorBusy = run.anchor.added.filter(
    (_, i) => busy(run.anchor.routed[i] as Sample) || busy(run.anchor.direct[i] as Sample),
  ).length;
  const anchorQuiet = summarize(
    run.anchor.added.filter(
      (_, i) => !busy(run.anchor.routed[i] as Sample) && !busy(run.anchor.direct[i] as Sample),
    ),
  );
  const waitD = summarize(pairs.direct.map((s) => s.mainWaitNs / 1e6));
  const waitR = summarize(pairs.routed.map((s) => s.mainWaitNs / 1e6));
  const threadLines = threadClock
    ? [
        `  (diagnostic, --threads) windows where other threads of this process (V8 compiler, GC helpers) ran >= ${OTHERS_NS / 1e6} ms: routed ${othersRouted}, direct ${othersDirect}; p99 of the other pairs ${quietPairs.p99.toFixed(3)} ms (${quietPairs.n} pairs)`,
        `     the anchor's pairs the same way: ${anchorBusy} with a busy window; p99 of the other pairs ${anchorQuiet.p99.toFixed(3)} ms (${anchorQuiet.n} pairs)`,
        `  (diagnostic, --threads) main thread waiting for a CPU inside the TTFC window, p99: direct ${waitD.p99.toFixed(3)} ms, routed ${waitR.p99.toFixed(3)} ms`,
      ]
    : [];
  const cpuD = summarize(pairs.direct.map((s) => s.cpuUs));
  const cpuR = summarize(pairs.routed.map((s) => s.cpuUs));
  const cpuAdded = summarize(pairDiffs(pairs, (s) => s.cpuUs));
  const lines = [
    `${label.padEnd(42)}   median      p90      p99`,
    row('direct undici request()', d),
    row(name, r),
    row('added, per pair (routed - direct)', added),
    `  ${'added, difference of medians'.padEnd(40)}${fmt(medianDiff)}`,
    `  ${'added, difference of p99s'.padEnd(40)}${fmt(p99Diff)}`,
    `  ${'ratio routed/direct (medians)'.padEnd(40)}${fmt(ratio)}`,
    `  P1 ${name} added median TTFC (per pair) ${added.median.toFixed(3)} ms: target <= 0.100 ms ${medianMet ? 'met' : 'NOT met'}`,
    `  P1 ${name} p99 of per-pair TTFC differences ${added.p99.toFixed(3)} ms: target <= 0.500 ms ${p99Met ? 'met' : 'NOT met'}`,
    `     anchor (not a target): direct vs direct, the same ${anchor.n} pairs' p99 ${anchor.p99.toFixed(3)} ms (median ${anchor.median.toFixed(3)} ms)${run.anchor.stoppedEarly ? ', stopped early' : ''}`,
    `  (diagnostic) pairs with a GC inside the TTFC: routed ${gcRouted}, direct ${gcDirect} of ${pairs.added.length}; p99 of the other pairs ${noGc.p99.toFixed(3)} ms (${noGc.n} pairs)`,
    `  (diagnostic) p99 of per-pair differences by ${TAIL_BLOCK} pairs, in call order: ${blocks.map((b) => b.toFixed(3)).join(' / ')} ms`,
    `  (diagnostic) median of per-pair differences by ${TAIL_BLOCK} pairs, in call order (the JIT's warm-up): ${blockMedians.map((b) => b.toFixed(3)).join(' / ')} ms`,
    `  (diagnostic) CPU of this process (all threads) inside the TTFC window, µs: direct ${winD.median.toFixed(0)} median / ${winD.p99.toFixed(0)} p99, routed ${winR.median.toFixed(0)} / ${winR.p99.toFixed(0)}; per pair p99 ${winAdded.p99.toFixed(0)}`,
    ...threadLines,
    '',
    `${`CPU per call, the same ${name} calls (µs)`.padEnd(42)}   median      p90      p99`,
    row('direct undici request()', cpuD, 0),
    row(name, cpuR, 0),
    row('added, per pair (routed - direct)', cpuAdded, 0),
  ];
  return {
    lines,
    json: {
      pairs: pairs.direct.length,
      ttfcMs: { direct: d, routed: r, addedPerPair: added, medianDiff, p99Diff, ratio },
      gcInTtfc: { routed: gcRouted, direct: gcDirect, addedPerPairWithoutGc: noGc },
      p99ByBlockMs: blocks,
      windowCpuUs: { direct: winD, routed: winR, addedPerPair: winAdded },
      ...(threadClock
        ? {
            threads: {
              othersBusy: { routed: othersRouted, direct: othersDirect, addedPerPairOfTheOthers: quietPairs },
              anchorOthersBusy: { pairs: anchorBusy, addedPerPairOfTheOthers: anchorQuiet },
              mainWaitMs: { direct: waitD, routed: waitR },
            },
          }
        : {}),
      anchorDirectVsDirectMs: anchor,
      cpuPerCallUs: { direct: cpuD, routed: cpuR, addedPerPair: cpuAdded },
    },
  };
}

function report(ttfc: TtfcRun, chat: TtfcRun, long: PairResults, elapsedMs: number, load: number[]): void {
  const tts = ttfcSection('router.tts()', `Time to first chunk (ms), ${SHORT_BYTES}-byte answers`, ttfc);
  const chatSection = ttfcSection('router.chat()', 'Time to first chat delta (ms)', chat);
  const callCpuAdded = tts.json.cpuPerCallUs.addedPerPair;
  const streamD = summarize(long.direct.map((s) => s.cpuUs));
  const streamR = summarize(long.routed.map((s) => s.cpuUs));
  const streamAdded = summarize(pairDiffs(long, (s) => s.cpuUs));
  const chunksD = chunksPerCall(long.direct);
  const chunksR = chunksPerCall(long.routed);
  // The direct read takes the body from a Readable that coalesces what arrived while the
  // consumer was busy (fewer, larger chunks); the router hands on every chunk from the socket
  // as it came. All the CPU a routed stream costs more is charged to the router's chunks, the
  // per-call cost included (a conservative figure); the second figure takes the per-call cost out.
  const addedPerChunk = streamAdded.median / chunksR;
  const addedPerChunkOnly = (streamAdded.median - callCpuAdded.median) / chunksR;
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const chunkMet = addedPerChunk < 5;
  const loadNow = loadavg()[0] ?? 0;

  const lines = [
    `voxroute router overhead: node ${process.version}, ${cpus().length} CPUs (${cpu}), server: ${SERVER_MODE}, voxroute from ${LIB ?? 'src/ (jiti)'}`,
    `load average ${(load[0] ?? 0).toFixed(1)} at start, ${loadNow.toFixed(1)} at end; ${ttfc.pairs.direct.length} interleaved pairs after ${WARMUP} warmup pairs`,
    ttfc.pairs.stoppedEarly || chat.pairs.stoppedEarly || long.stoppedEarly
      ? `(stopped early: the ${BUDGET_MS / 1000} s budget ran out)`
      : '',
    '',
    ...tts.lines,
    '',
    ...chatSection.lines,
    '',
    `${`CPU per ${LONG_BYTES}-byte stream (µs), ${long.direct.length} pairs`.padEnd(42)}   median      p90      p99  chunks/stream`,
    `${row('direct undici request()', streamD, 0)} ${fmt(chunksD, 1, 14)}`,
    `${row('router.tts()', streamR, 0)} ${fmt(chunksR, 1, 14)}`,
    row('added, per pair (routed - direct)', streamAdded, 0),
    `  ${`added per chunk (median pair / ${chunksR.toFixed(0)}, µs)`.padEnd(40)}${fmt(addedPerChunk, 2)}   (target < 5: ${chunkMet ? 'met' : 'NOT met'})`,
    `  ${'the same without the per-call cost'.padEnd(40)}${fmt(addedPerChunkOnly, 2)}`,
    `  ${'ratio routed/direct (medians)'.padEnd(40)}${fmt(streamR.median / streamD.median)}`,
    '',
    `(${(elapsedMs / 1000).toFixed(1)} s)`,
  ];
  console.log(lines.filter((l, i) => l !== '' || i > 2).join('\n'));
  if (args.json) {
    console.log(
      JSON.stringify({
        node: process.version,
        cpus: cpus().length,
        load: [load[0], loadNow],
        server: SERVER_MODE,
        from: LIB ?? 'src',
        tts: tts.json,
        chat: chatSection.json,
        cpuPerStreamUs: { direct: streamD, routed: streamR, addedPerPair: streamAdded, chunksD, chunksR },
        cpuPerChunkUs: { added: addedPerChunk, addedWithoutPerCall: addedPerChunkOnly },
      }),
    );
  }
}

await main();
