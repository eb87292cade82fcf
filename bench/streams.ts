/**
 * 1,000 concurrent TTS streams paced in real time (issue 15, P6).
 *
 * `node scripts/run-ts.mjs bench/streams.ts [--streams N] [--dist] [--lib PATH]... [--spin-us U] [--offload]`
 * (`npm run bench:streams`).
 *
 * `--offload` also runs the converted phase with resampling on the event loop
 * (`resampleOffload: false`) and on the worker thread (`resampleOffload: 0`), in the order
 * inline, worker, worker, inline, printed as extra rows, not targets (the main converted phase
 * runs with the default option: the thread from the 32nd resampling stream on). The
 * `main µs/chunk` column is the main thread's own CPU per chunk (Linux; the process's CPU
 * column includes the worker thread's).
 *
 * `--lib PATH` (repeatable) runs ESM builds of voxroute instead of the source (or dist/): the
 * last one runs every phase below; with two or more, the converted phase is also run for each
 * build in ABBA order after the anchors (A B B A for two builds: a drift of the machine falls on
 * both alike), printed as extra rows, not targets (e.g. the tree before a change bundled into
 * .scratch/before.js, and after).
 *
 * A loopback server in a child process (bench/paced-server.ts) sends each stream 3 s of PCM
 * s16le at 24 kHz as 150 chunks of 20 ms, one per tick of a shared 20 ms timer; each chunk
 * carries its number. In this process, one after the other, N streams each, in phases of three
 * kinds:
 *  - direct (D): undici `request()` on an Agent of its own (the reference);
 *  - routed (R): `router.tts()` in the caller's format (24 kHz, pass-through);
 *  - converted (C): `router.tts()` asking for 16 kHz (24k -> 16k through the resampler);
 * first one warm-up phase of each (printed, not counted: the first phase of a kind opens its N
 * connections and warms the JIT, and its gaps were 13 to 14 ms higher than a later identical
 * phase's), then D R C C R D: a palindrome, so a drift of the machine over the run falls alike on
 * the reference and on each routed kind. Each kind's gaps are pooled over its two phases; memory
 * is the larger of the two. Then:
 *  - idle: `router.tts()` streams that got their first chunk and then receive nothing;
 *  - anchors (printed, not targets): direct read through one pass-through async generator (what
 *    the smallest wrapper adds at this load); with `--spin-us U`, also the caller format with U µs
 *    of busy CPU per chunk in the reader (what U µs more of event-loop work per chunk does to the
 *    gaps, e.g. the resampler's cost per 20 ms chunk).
 * Counted: failed streams; lost or duplicated chunks (chunk numbers in order when the format
 * is the caller's; total bytes against the expected length when converted); the gap between
 * the arrival of consecutive 20 ms chunks (p99 over all gaps of all streams), routed minus
 * direct (gaps spanning the forced gc of the memory measurement left out); memory (heap + external, array buffers included, right after a forced gc) with all N streams
 * active or idle, minus the same before, per stream; the process's CPU time over each phase
 * (user + system, the gc of the memory reading included) per chunk of every stream, a figure
 * that load from other processes moves less than the gaps; and the event loop's utilization
 * over the phase (`performance.eventLoopUtilization()`: the share of time it was busy, not
 * waiting for I/O; near 100% the loop has no slack left and the gaps grow).
 * Bounded: every phase ends within 30 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';
import type { AudioFormat, Router } from 'voxroute';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';
import { openThreadClock } from './thread-clock.js';

const args = benchArgs(import.meta.url, {
  streams: { type: 'string', default: '1000' },
  dist: { type: 'boolean', default: false },
  lib: { type: 'string', multiple: true },
  'spin-us': { type: 'string' },
  offload: { type: 'boolean', default: false },
});
const N = Number(args.streams);
const SPIN_US = args['spin-us'] === undefined ? undefined : Number(args['spin-us']);
if (SPIN_US !== undefined && !(SPIN_US > 0 && Number.isFinite(SPIN_US))) {
  console.error(`--spin-us must be a number of µs above 0, got '${args['spin-us']}'`);
  process.exit(2);
}
const HERE = dirname(fileURLToPath(import.meta.url));
type Voxroute = typeof import('voxroute');
const LIBS = args.lib ?? [];
const builds: Voxroute[] = [];
for (const lib of LIBS) builds.push(await import(pathToFileURL(resolve(lib)).href));
const voxroute: Voxroute =
  builds.at(-1) ??
  (args.dist
    ? await import(pathToFileURL(resolve(HERE, '../dist/index.js')).href)
    : await import('voxroute'));

setFlagsFromString('--expose-gc');
const threads = openThreadClock();
const gc = runInNewContext('gc') as () => void;

const CHUNK_BYTES = 960;
const CHUNKS = 150;
const CHUNK_MS = 20;
const PHASE_LIMIT_MS = 30_000;
const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const PCM_16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };

/** What the caller saw of one stream. */
interface StreamLog {
  failed: boolean;
  /** Chunk numbers seen, in order (only when the bytes are the server's). */
  numbers: number[];
  bytes: number;
  /** When each 20 ms frame was complete (ms). */
  arrivals: number[];
}

function newLog(): StreamLog {
  return { failed: false, numbers: [], bytes: 0, arrivals: [] };
}

/**
 * Splits a byte stream into 20 ms frames (`frameBytes`: 960 at 24 kHz, 640 at 16 kHz) and notes
 * when each one was complete, and, when the bytes are the server's own, each frame's number.
 */
function recorder(log: StreamLog, frameBytes: number, numbered: boolean): (data: Uint8Array) => void {
  let pending = 0;
  let head = Buffer.alloc(0);
  return (data) => {
    const now = performance.now();
    log.bytes += data.byteLength;
    if (numbered) {
      head = head.length === 0 ? Buffer.from(data) : Buffer.concat([head, data]);
      while (head.length >= frameBytes) {
        log.numbers.push(head.readUInt32LE(0));
        log.arrivals.push(now);
        head = head.subarray(frameBytes);
      }
      return;
    }
    pending += data.byteLength;
    while (pending >= frameBytes) {
      log.arrivals.push(now);
      pending -= frameBytes;
    }
  };
}

async function startServer(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [resolve(HERE, '../scripts/run-ts.mjs'), resolve(HERE, 'paced-server.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const [origin] = (await once(lines, 'line')) as [string];
  return { origin, child };
}

/**
 * Heap + external memory after forced gcs. One gc is not enough: buffers whose owners died
 * are freed by finalizers that run after it, so a phase's garbage would count against the next
 * phase (negative figures). Three gcs, each followed by a turn of the event loop, then a last
 * gc, read at once: what the turn after a gc allocated and dropped (each stream's chunks
 * delivered meanwhile, garbage of the pipeline) is not memory held per stream. `external`
 * already includes `arrayBuffers` (Node's process.memoryUsage() documentation), so the
 * array buffers are not added a second time.
 */
async function memory(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** What one phase measured. */
interface Phase {
  logs: StreamLog[];
  bytesPerStream: number;
  ms: number;
  /** Process CPU time (user + system) over the phase, in µs per 20 ms chunk of every stream. */
  cpuPerChunkUs: number;
  /** Share of the phase's time the event loop was busy (0..1). */
  loopBusy: number;
  /** The main thread's own CPU time over the phase, in µs per chunk (NaN off Linux). */
  mainPerChunkUs: number;
  gcWindow: [number, number];
  error?: string;
}

/** Runs `n` streams with `one`, measuring memory when all have their first chunk. */
async function phase(
  n: number,
  one: (log: StreamLog, started: () => void, hold: Promise<void>, signal: AbortSignal) => Promise<void>,
  holdOpen = false,
): Promise<Phase> {
  const stop = new AbortController();
  // Every stream of the phase listens on it.
  setMaxListeners(0, stop.signal);
  let error: string | undefined;
  const before = await memory();
  const logs = Array.from({ length: n }, newLog);
  let started = 0;
  let allStarted!: () => void;
  const everyoneStarted = new Promise<void>((r) => {
    allStarted = r;
  });
  let release!: () => void;
  const hold = new Promise<void>((r) => {
    release = r;
  });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = threads?.read().mainRunNs ?? Number.NaN;
  const elu0 = performance.eventLoopUtilization();
  const runs = logs.map((log) =>
    one(
      log,
      () => {
        if (++started === n) allStarted();
      },
      hold,
      stop.signal,
    ).catch((e: unknown) => {
      error ??= e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      log.failed = true;
      if (++started === n) allStarted();
    }),
  );
  // Bounded: streams not done by the limit are aborted and count as failed.
  const limit = setTimeout(() => {
    allStarted();
    release();
    stop.abort(new Error(`not done within ${PHASE_LIMIT_MS} ms`));
  }, PHASE_LIMIT_MS);
  await everyoneStarted;
  const g0 = performance.now();
  const during = await memory();
  const gcWindow: [number, number] = [g0, performance.now()];
  if (holdOpen) release();
  await Promise.all(runs);
  clearTimeout(limit);
  release();
  return {
    logs,
    bytesPerStream: (during - before) / n,
    ms: performance.now() - t0,
    cpuPerChunkUs: ((c) => (c.user + c.system) / (n * CHUNKS))(process.cpuUsage(cpu0)),
    loopBusy: performance.eventLoopUtilization(elu0).utilization,
    mainPerChunkUs: ((threads?.read().mainRunNs ?? Number.NaN) - main0) / 1000 / (n * CHUNKS),
    gcWindow,
    ...(error ? { error } : {}),
  };
}

/**
 * Gaps between consecutive chunks of every stream, leaving out those that span the forced gc
 * of the memory measurement (the benchmark's own pause, not the router's).
 */
function gaps(p: { logs: StreamLog[]; gcWindow: [number, number] }): number[] {
  const [g0, g1] = p.gcWindow;
  const out: number[] = [];
  for (const log of p.logs) {
    for (let i = 1; i < log.arrivals.length; i++) {
      const from = log.arrivals[i - 1]!;
      const to = log.arrivals[i]!;
      if (to >= g0 && from <= g1 + 2 * CHUNK_MS) continue;
      out.push(to - from);
    }
  }
  return out;
}

/**
 * Phases of one kind taken together: their streams and gaps pooled, memory the larger, CPU and
 * the loop's busy share averaged, time summed, the first error.
 */
function pooled(phases: Phase[]): Phase & { gaps: number[] } {
  const mean = (pick: (p: Phase) => number) => phases.reduce((sum, p) => sum + pick(p), 0) / phases.length;
  const error = phases.find((p) => p.error)?.error;
  return {
    logs: phases.flatMap((p) => p.logs),
    gaps: phases.flatMap((p) => gaps(p)),
    bytesPerStream: Math.max(...phases.map((p) => p.bytesPerStream)),
    ms: phases.reduce((sum, p) => sum + p.ms, 0),
    cpuPerChunkUs: mean((p) => p.cpuPerChunkUs),
    loopBusy: mean((p) => p.loopBusy),
    mainPerChunkUs: mean((p) => p.mainPerChunkUs),
    gcWindow: [Number.NaN, Number.NaN],
    ...(error ? { error } : {}),
  };
}

/** Lost and duplicated chunks, from the chunk numbers in order. */
function countNumbers(logs: StreamLog[]): { lost: number; duplicated: number } {
  let lost = 0;
  let duplicated = 0;
  for (const log of logs) {
    if (log.failed) continue;
    const seen = new Set<number>();
    for (const n of log.numbers) {
      if (seen.has(n)) duplicated++;
      seen.add(n);
    }
    for (let i = 0; i < CHUNKS; i++) if (!seen.has(i)) lost++;
  }
  return { lost, duplicated };
}

/** Converted streams: bytes against 3 s at 16 kHz, in 20 ms chunks of 640 bytes (a chunk is 640 bytes). */
function countBytes(logs: StreamLog[]): { lost: number; duplicated: number } {
  const expected = CHUNKS * 640;
  let lost = 0;
  let duplicated = 0;
  for (const log of logs) {
    if (log.failed) continue;
    const diff = log.bytes - expected;
    // The resampler's rounding is at most a few samples; a chunk is 640 bytes.
    if (diff <= -320) lost += Math.round(-diff / 640) || 1;
    if (diff >= 320) duplicated += Math.round(diff / 640) || 1;
  }
  return { lost, duplicated };
}

function routerFor(origin: string, lib: Voxroute = voxroute, resampleOffload?: number | false): Router {
  return lib.createRouter(
    lib.defineConfig({
      providers: {
        local: {
          kind: 'openai-compatible',
          baseUrl: `${origin}/v1`,
          tts: {
            model: 'bench',
            voices: { agent: 'agent', hold: 'hold' },
            responseFormat: 'pcm',
            sampleRate: 24_000,
          },
        },
      },
      routes: { tts: { providers: ['local'] } },
    }),
    resampleOffload === undefined ? {} : { resampleOffload },
  );
}

async function main(): Promise<void> {
  const { origin, child } = await startServer();
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  const router = routerFor(origin);
  await router.warmup();
  const body = JSON.stringify({
    model: 'bench',
    input: 'Hello there',
    voice: 'agent',
    response_format: 'pcm',
  });

  /** A direct undici stream, read as it is or through `wrap` (the anchor for one extra layer). */
  const directRun =
    (wrap: (body: AsyncIterable<Buffer>) => AsyncIterable<Buffer> = (b) => b) =>
    async (log: StreamLog, started: () => void, _hold: Promise<void>, signal: AbortSignal) => {
      const { statusCode, body: stream } = await request(`${origin}/v1/audio/speech`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        dispatcher: agent,
        signal,
      });
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      const record = recorder(log, CHUNK_BYTES, true);
      let first = true;
      for await (const data of wrap(stream as AsyncIterable<Buffer>)) {
        record(data);
        if (first) started();
        first = false;
      }
    };
  const routedRun =
    (format: AudioFormat, voice: string, on: Router = router, spinUs = 0) =>
    async (log: StreamLog, started: () => void, hold: Promise<void>, signal: AbortSignal) => {
      const record = format === PCM_24K ? recorder(log, CHUNK_BYTES, true) : recorder(log, 640, false);
      let first = true;
      for await (const chunk of on.tts({ text: 'Hello there', voice, format, signal })) {
        record(chunk.data);
        if (spinUs > 0) {
          const until = performance.now() + spinUs / 1000;
          while (performance.now() < until);
        }
        if (first) {
          first = false;
          started();
          if (voice === 'hold') {
            await hold;
            break;
          }
        }
      }
    };
  const kinds = {
    D: directRun(),
    R: routedRun(PCM_24K, 'agent'),
    C: routedRun(PCM_16K, 'agent'),
  } as const;
  const warm = { D: await phase(N, kinds.D), R: await phase(N, kinds.R), C: await phase(N, kinds.C) };
  const runs: { D: Phase[]; R: Phase[]; C: Phase[] } = { D: [], R: [], C: [] };
  for (const kind of ['D', 'R', 'C', 'C', 'R', 'D'] as const) runs[kind].push(await phase(N, kinds[kind]));
  const direct = pooled(runs.D);
  const routed = pooled(runs.R);
  const converted = pooled(runs.C);
  const idle = await phase(N, routedRun(PCM_24K, 'hold'), true);
  // Anchor, not a target: direct read through one pass-through async generator (what the
  // smallest possible wrapper around the body adds at this load).
  const oneLayer = await phase(
    N,
    directRun(async function* (b) {
      for await (const data of b) yield data;
    }),
  );

  // Anchor, not a target (--spin-us): the caller format with that much more CPU per chunk on
  // the event loop, in the reader.
  const spun =
    SPIN_US === undefined ? undefined : await phase(N, routedRun(PCM_24K, 'agent', router, SPIN_US));

  // Side by side (--lib, two or more builds): the converted phase per build, ABBA.
  const sideBySide: { lib: number; phase: Phase }[] = [];
  if (builds.length > 1) {
    const routers = builds.map((b) => routerFor(origin, b));
    for (const r of routers) await r.warmup();
    const order = [...builds.keys(), ...[...builds.keys()].reverse()];
    for (const i of order)
      sideBySide.push({ lib: i, phase: await phase(N, routedRun(PCM_16K, 'agent', routers[i])) });
    for (const r of routers) await r.close();
  }

  // Side by side (--offload): the converted phase inline and on the worker thread, ABBA.
  const offloaded: { label: string; phase: Phase }[] = [];
  if (args.offload) {
    const inline = routerFor(origin, voxroute, false);
    const worker = routerFor(origin, voxroute, 0);
    for (const r of [inline, worker]) await r.warmup();
    for (const [label, r] of [
      ['inline', inline],
      ['worker', worker],
      ['worker', worker],
      ['inline', inline],
    ] as const)
      offloaded.push({ label, phase: await phase(N, routedRun(PCM_16K, 'agent', r)) });
    for (const r of [inline, worker]) await r.close();
  }

  await router.close();
  await agent.close();
  child.stdin?.end();

  const d = summarize(direct.gaps);
  const r = summarize(routed.gaps);
  const c = summarize(converted.gaps);
  const failed = (logs: StreamLog[]) => logs.filter((l) => l.failed).length;
  const routedCount = countNumbers(routed.logs);
  const convertedCount = countBytes(converted.logs);
  const directCount = countNumbers(direct.logs);
  console.log(
    `${N} concurrent paced TTS streams (3 s, 20 ms chunks), node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `${''.padEnd(34)} failed  lost  dup   gap median     p99     max   KB/stream  phase ms  CPU µs/chunk  loop busy  main µs/chunk`,
  );
  const row = (label: string, p: Phase, s: typeof d, count: { lost: number; duplicated: number }) =>
    console.log(
      `  ${label.padEnd(32)}${String(failed(p.logs)).padStart(6)}${String(count.lost).padStart(6)}${String(count.duplicated).padStart(5)}${fmt(s.median, 2, 12)}${fmt(s.p99, 2, 9)}${fmt(s.max, 1, 8)}${fmt(p.bytesPerStream / 1024, 1, 12)}${fmt(p.ms, 0, 10)}${fmt(p.cpuPerChunkUs, 2, 14)}${fmt(p.loopBusy * 100, 1, 10)}%${fmt(p.mainPerChunkUs, 2, 15)}`,
    );
  row('warm-up (not counted): direct', warm.D, summarize(gaps(warm.D)), countNumbers(warm.D.logs));
  row('warm-up (not counted): caller', warm.R, summarize(gaps(warm.R)), countNumbers(warm.R.logs));
  row('warm-up (not counted): 24k->16k', warm.C, summarize(gaps(warm.C)), countBytes(warm.C.logs));
  const [d1, d2] = runs.D as [Phase, Phase];
  const [r1, r2] = runs.R as [Phase, Phase];
  const [c1, c2] = runs.C as [Phase, Phase];
  for (const [label, p, count] of [
    ['1st D: direct undici request()', d1, countNumbers],
    ['2nd R: router.tts(), caller', r1, countNumbers],
    ['3rd C: router.tts(), 24k -> 16k', c1, countBytes],
    ['4th C: router.tts(), 24k -> 16k', c2, countBytes],
    ['5th R: router.tts(), caller', r2, countNumbers],
    ['6th D: direct undici request()', d2, countNumbers],
  ] as const)
    row(label, p, summarize(gaps(p)), count(p.logs));
  row('direct, both phases (reference)', direct, d, directCount);
  row('caller format, both phases', routed, r, routedCount);
  row('24k -> 16k, both phases', converted, c, convertedCount);
  row('anchor: direct + 1 async gen', oneLayer, summarize(gaps(oneLayer)), countNumbers(oneLayer.logs));
  if (spun) row(`anchor: caller + ${SPIN_US} µs/chunk`, spun, summarize(gaps(spun)), countNumbers(spun.logs));
  for (const { lib, phase: p } of sideBySide) {
    const g = summarize(gaps(p));
    row(`24k -> 16k, build #${lib + 1}, +${(g.p99 - d.p99).toFixed(1)}`, p, g, countBytes(p.logs));
    if (p.error) console.log(`    first error: ${p.error}`);
  }
  for (const { label, phase: p } of offloaded) {
    const g = summarize(gaps(p));
    row(`24k -> 16k ${label}, +${(g.p99 - d.p99).toFixed(1)}`, p, g, countBytes(p.logs));
    if (p.error) console.log(`    first error: ${p.error}`);
  }
  for (const [i, lib] of LIBS.entries()) console.log(`  build #${i + 1}: ${lib}`);
  console.log(
    `  ${'router.tts(), idle (held open)'.padEnd(32)}${String(failed(idle.logs)).padStart(6)}${''.padStart(45)}${fmt(idle.bytesPerStream / 1024, 1, 12)}`,
  );

  const targets: [string, string, boolean][] = [
    [
      'P6 caller format: 0 failed, 0 lost, 0 duplicated',
      `${failed(routed.logs)} / ${routedCount.lost} / ${routedCount.duplicated}`,
      failed(routed.logs) + routedCount.lost + routedCount.duplicated === 0,
    ],
    [
      'P6 24k -> 16k: 0 failed, 0 lost, 0 duplicated',
      `${failed(converted.logs)} / ${convertedCount.lost} / ${convertedCount.duplicated}`,
      failed(converted.logs) + convertedCount.lost + convertedCount.duplicated === 0,
    ],
    ['P6 caller format: added p99 gap <= 5 ms', `${(r.p99 - d.p99).toFixed(2)} ms`, r.p99 - d.p99 <= 5],
    ['P6 24k -> 16k: added p99 gap <= 5 ms', `${(c.p99 - d.p99).toFixed(2)} ms`, c.p99 - d.p99 <= 5],
    [
      'P6 memory per active stream <= 50 KB (caller format)',
      `${(routed.bytesPerStream / 1024).toFixed(1)} KB`,
      routed.bytesPerStream <= 50 * 1024,
    ],
    [
      'P6 memory per active stream <= 50 KB (24k -> 16k)',
      `${(converted.bytesPerStream / 1024).toFixed(1)} KB`,
      converted.bytesPerStream <= 50 * 1024,
    ],
    [
      'P6 memory per idle stream <= 50 KB',
      `${(idle.bytesPerStream / 1024).toFixed(1)} KB (${failed(idle.logs)} failed)`,
      idle.bytesPerStream <= 50 * 1024 && failed(idle.logs) === 0,
    ],
  ];
  for (const [label, p] of [
    ['direct', direct],
    ['caller format', routed],
    ['24k -> 16k', converted],
    ['idle', idle],
  ] as const)
    if (p.error) console.log(`  first error (${label}): ${p.error}`);
  console.log('\nTargets:');
  for (const [label, value, met] of targets)
    console.log(`  ${label.padEnd(56)}${value.padEnd(24)}${met ? 'met' : 'NOT met'}`);
  process.exit(0);
}

await main();
