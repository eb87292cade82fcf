/**
 * Per-call cost of `router.tts()` and `router.chat()` (issue 15, P1): CPU and heap allocated per
 * call, against a direct undici `request()` to the same loopback server, and optionally between
 * several builds of voxroute in one process. A companion of bench/overhead.ts that measures
 * what its tail figures depend on with less noise than a time: CPU per call and bytes allocated
 * per call (the allocations drive the garbage collections behind the p99).
 *
 * Run (needs `--expose-gc`; the script restarts itself with it when missing):
 *   node scripts/run-ts.mjs bench/call-cost.ts [--lib PATH]... [--calls N] [--rounds N] [--only tts|chat]
 *   node scripts/run-ts.mjs bench/call-cost.ts --profile tts --out PREFIX   # profiles of routed calls
 *
 *   --lib PATH   an ESM build of voxroute to measure (repeatable; default dist/index.js). With
 *                two or more, their batches are interleaved in one process, so a shared
 *                machine's drift falls on all of them alike.
 *   --calls N    calls per batch (default 100)
 *   --rounds N   batches per side (default 30)
 *   --first      count only the part of each call before its first chunk (from the call to the
 *                first audio chunk, text delta or body chunk in hand): CPU and heap allocated on
 *                the path P1 measures; the rest of the body is still read, not counted
 *   --hedged     three providers on the same server, routes with `hedge: { after: 'auto' }`:
 *                the router's objective, hedge delay and token price run on every call (by
 *                default one provider and no hedge, where the planner skips them)
 *   --in-memory  the routers send HTTP through a `fetch` that answers from memory (no socket,
 *                no server, no direct side): the router's own CPU and allocations per call with
 *                the least noise from the network stack (the fetch path, not undici's request)
 *   --profile C  run only routed calls of C (tts or chat) of the first --lib, --rounds x --calls
 *                of them after a warm-up, and write a CPU profile (PREFIX.cpuprofile, 100 µs
 *                sampling) and an allocation profile (PREFIX.heapprofile: sampled every 512 bytes,
 *                collected objects included, so it counts every allocation, not what survives)
 *                of that loop alone; open them in Chrome DevTools or read the self times
 *
 * Method. The server of bench/overhead.ts in a child process; one router per build, configured
 * as in overhead.ts (PCM 24 kHz asked and served: no conversion), warmed up. A batch is
 * `--calls` calls of one side, each read to its end, one after the other. CPU per call:
 * process.cpuUsage() over the batch / calls. Heap per call: a full gc() before the batch, then
 * used_heap_size after minus before, / calls; a batch during which a garbage collection ran
 * (seen by a PerformanceObserver) is not counted for heap (the young generation is set large
 * enough that few do). Each figure is the median over batches.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { dirname, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { Agent, request } from 'undici';
import type { AudioFormat, Router } from 'voxroute';
import { benchArgs } from './args.js';
import { CHAT_EVENTS, CHAT_TEXT, SHORT_ANSWER, startPcmServerProcess } from './pcm-server.js';
import { fmt, summarize } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // Restart with a callable gc() and a young generation large enough for a batch.
  const r = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-semi-space-size=64',
      ...process.execArgv,
      resolve(HERE, '../scripts/run-ts.mjs'),
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

const args = benchArgs(import.meta.url, {
  lib: { type: 'string', multiple: true },
  calls: { type: 'string', default: '100' },
  rounds: { type: 'string', default: '30' },
  profile: { type: 'string' },
  out: { type: 'string', default: 'call-cost' },
  only: { type: 'string' },
  'in-memory': { type: 'boolean', default: false },
  first: { type: 'boolean', default: false },
  hedged: { type: 'boolean', default: false },
});
const FIRST = args.first;

/** With --first: CPU µs and heap bytes summed over a batch, from each call to its first chunk. */
const toFirst = { cpuUs: 0, heap: 0, cpu0: process.cpuUsage(), heap0: 0 };
/** Marks the start of a call (--first). */
function markStart(): void {
  if (!FIRST) return;
  toFirst.cpu0 = process.cpuUsage();
  toFirst.heap0 = getHeapStatistics().used_heap_size;
}
/** Marks a call's first chunk (--first). */
function markFirst(): void {
  if (!FIRST) return;
  const heap = getHeapStatistics().used_heap_size;
  const cpu = process.cpuUsage(toFirst.cpu0);
  toFirst.heap += heap - toFirst.heap0;
  toFirst.cpuUs += cpu.user + cpu.system;
}
const CALLS = Number(args.calls);
const ROUNDS = Number(args.rounds);
const LIBS = args.lib?.length ? args.lib : [resolve(HERE, '../dist/index.js')];
const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const TEXT = 'Your table is booked for seven thirty.';
const SHORT_BYTES = SHORT_ANSWER.chunkBytes * SHORT_ANSWER.chunks;
const MESSAGES = [{ role: 'user' as const, content: 'Is my table booked?' }];

/**
 * The routers' config: one provider `local` on the loopback server, or with --hedged three
 * (`local`, `local2`, `local3`, the same server) on routes with `hedge: { after: 'auto',
 * maxShare: 0.1 }`, so that the objective, the hedge delay and the token price run on every call.
 */
function routerConfig(origin: string) {
  const provider = {
    kind: 'openai-compatible' as const,
    baseUrl: `${origin}/v1`,
    tts: {
      model: 'bench-tts',
      voices: { agent: 'bench' },
      responseFormat: 'pcm' as const,
      sampleRate: 24_000,
    },
    chat: { models: { fast: 'bench-chat' } },
  };
  if (!args.hedged)
    return {
      providers: { local: provider },
      routes: { tts: { providers: ['local'] }, chat: { providers: ['local'] } },
    };
  const names = ['local', 'local2', 'local3'];
  const hedge = { after: 'auto' as const, maxShare: 0.1 };
  return {
    providers: Object.fromEntries(names.map((n) => [n, provider])),
    routes: { tts: { providers: names, hedge }, chat: { providers: names, hedge } },
  };
}

type Call = () => Promise<void>;

/** The answers of the loopback server, from memory: 4 chunks of PCM, or the chat SSE events. */
const PCM_CHUNK = new Uint8Array(SHORT_ANSWER.chunkBytes).fill(1);
const SSE_CHUNKS = CHAT_EVENTS.map((e) => new TextEncoder().encode(e));
function memoryFetch(input: string | URL | Request): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const chat = url.endsWith('/chat/completions');
  const chunks = chat ? SSE_CHUNKS : Array.from({ length: SHORT_ANSWER.chunks }, () => PCM_CHUNK);
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  return Promise.resolve(
    new Response(body, {
      status: 200,
      headers: { 'content-type': chat ? 'text/event-stream' : 'application/octet-stream' },
    }),
  );
}

function routedCalls(router: Router): { tts: Call; chat: Call } {
  return {
    async tts() {
      let bytes = 0;
      markStart();
      for await (const chunk of router.tts({ text: TEXT, voice: 'agent', format: PCM_24K })) {
        if (bytes === 0) markFirst();
        bytes += chunk.data.byteLength;
      }
      if (bytes !== SHORT_BYTES) throw new Error(`routed tts: ${bytes} bytes`);
    },
    async chat() {
      let text = '';
      markStart();
      for await (const e of router.chat({ model: 'fast', messages: MESSAGES })) {
        if (text === '' && e.type === 'text-delta') markFirst();
        if (e.type === 'text-delta') text += e.text;
      }
      if (text !== CHAT_TEXT) throw new Error(`routed chat: ${text}`);
    },
  };
}

function directCalls(origin: string): { tts: Call; chat: Call; close(): Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });
  const post = async (path: string, accept: string, body: string): Promise<number> => {
    markStart();
    const res = await request(`${origin}${path}`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body,
    });
    let bytes = 0;
    for await (const piece of res.body) {
      if (bytes === 0) markFirst();
      bytes += (piece as Buffer).byteLength;
    }
    return bytes;
  };
  return {
    async tts() {
      const bytes = await post(
        '/v1/audio/speech',
        'application/octet-stream',
        JSON.stringify({ input: TEXT, voice: 'bench', response_format: 'pcm', model: 'bench-tts' }),
      );
      if (bytes !== SHORT_BYTES) throw new Error(`direct tts: ${bytes} bytes`);
    },
    async chat() {
      await post(
        '/v1/chat/completions',
        'text/event-stream',
        JSON.stringify({ model: 'bench-chat', messages: MESSAGES, stream: true }),
      );
    },
    close: () => agent.close(),
  };
}

let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

/** One batch: CPU µs per call, and heap bytes per call (undefined when a gc ran in it). */
async function batch(call: Call): Promise<{ cpuUs: number; heap: number | undefined }> {
  gc!();
  // The observer hears of that collection a little later: let it, before counting.
  await new Promise((r) => setTimeout(r, 5));
  const gcs0 = gcs;
  toFirst.cpuUs = 0;
  toFirst.heap = 0;
  const h0 = getHeapStatistics().used_heap_size;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const cpu = process.cpuUsage(cpu0);
  const h1 = getHeapStatistics().used_heap_size;
  await new Promise((r) => setTimeout(r, 5));
  const cpuUs = FIRST ? toFirst.cpuUs : cpu.user + cpu.system;
  const heap = FIRST ? toFirst.heap : h1 - h0;
  return { cpuUs: cpuUs / CALLS, heap: gcs === gcs0 ? heap / CALLS : undefined };
}

async function main(): Promise<void> {
  const server = await startPcmServerProcess();
  const routers: { name: string; router: Router; calls: { tts: Call; chat: Call } }[] = [];
  for (const [i, lib] of LIBS.entries()) {
    const voxroute: typeof import('voxroute') = await import(pathToFileURL(resolve(lib)).href);
    const router = voxroute.createRouter(
      voxroute.defineConfig(routerConfig(server.origin)),
      args['in-memory'] ? { fetch: memoryFetch as typeof fetch } : {},
    );
    await router.warmup();
    routers.push({
      name: LIBS.length > 1 ? `routed #${i + 1} (${lib})` : 'routed',
      router,
      calls: routedCalls(router),
    });
  }
  const direct = directCalls(server.origin);
  try {
    if (args.profile) {
      const kind = args.profile === 'chat' ? 'chat' : 'tts';
      const call = routers[0]!.calls[kind];
      for (let i = 0; i < 300; i++) await call();
      const session = new Session();
      session.connect();
      const n = ROUNDS * CALLS;
      // CPU first, then allocations in a second loop (the heap sampler slows the calls).
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await call();
      const cpu = process.cpuUsage(cpu0);
      const { profile } = await session.post('Profiler.stop');
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 512,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      for (let i = 0; i < n; i++) await call();
      const { profile: heap } = await session.post('HeapProfiler.stopSampling');
      session.disconnect();
      await writeFile(`${args.out}.cpuprofile`, JSON.stringify(profile));
      await writeFile(`${args.out}.heapprofile`, JSON.stringify(heap));
      console.log(
        `${n} routed ${kind}() calls: ${((cpu.user + cpu.system) / n).toFixed(1)} µs CPU per call (CPU profiler on); wrote ${args.out}.cpuprofile and .heapprofile (${n} calls each)`,
      );
      return;
    }
    for (const kind of args.only ? [args.only as 'tts' | 'chat'] : (['tts', 'chat'] as const)) {
      const sides = [
        ...(args['in-memory'] ? [] : [{ name: 'direct undici request()', call: direct[kind] }]),
        ...routers.map((r) => ({ name: r.name, call: r.calls[kind] })),
      ];
      // Warm-up: every side, a few batches, not recorded.
      for (let i = 0; i < 3; i++) for (const s of sides) await batch(s.call);
      const cpu = sides.map(() => [] as number[]);
      const heap = sides.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate the order every round so that no side always follows the same one.
        for (let k = 0; k < sides.length; k++) {
          const j = (k + round) % sides.length;
          const b = await batch(sides[j]!.call);
          cpu[j]!.push(b.cpuUs);
          if (b.heap !== undefined) heap[j]!.push(b.heap);
        }
      }
      console.log(
        `${kind}(): ${ROUNDS} batches of ${CALLS} calls per side, medians over batches${FIRST ? ', counted from each call to its first chunk' : ''}`,
      );
      console.log(`  ${''.padEnd(60)}CPU µs/call  heap KB/call  (batches without gc)`);
      for (const [j, s] of sides.entries()) {
        const c = summarize(cpu[j]!).median;
        const h = heap[j]!.length ? summarize(heap[j]!).median / 1024 : Number.NaN;
        console.log(`  ${s.name.padEnd(60)}${fmt(c, 1, 11)}  ${fmt(h, 2, 12)}  (${heap[j]!.length})`);
      }
    }
  } finally {
    for (const r of routers) await r.router.close();
    await direct.close();
    await server.close();
  }
}

await main();
