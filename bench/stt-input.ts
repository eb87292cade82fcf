/**
 * CPU per 20 ms chunk of STT input through the OpenAI-compatible path (issue 12, kind 6).
 *
 * `node scripts/run-ts.mjs bench/stt-input.ts [--minutes 1,4] [--runs 3]` (`npm run bench:stt-input`).
 *
 * The caller's audio is PCM s16le at 16 kHz in 20 ms chunks (640 bytes), given as fast as the
 * router pulls it. For each length (default 1 min and 4 min of audio):
 *  1. direct: what the adapter cannot avoid, building the upload by hand: read every chunk
 *     from an async iterator, join them, encode the WAV file and the multipart body;
 *  2. routed: `router.stt()` to a loopback OpenAI-compatible server (bench/stt-server.ts, a
 *     process of its own so its CPU is not counted), `streaming: false`, up to the final
 *     transcript; the server answers with the body's size, which is checked.
 * CPU is `process.cpuUsage()` (user + system) over the whole call, divided by the number of
 * chunks; the best of `--runs` runs is kept (other processes only add to it), after three
 * warm-up calls of 1 min each (the first call costs several times the next: JIT). Target: routed
 * <= 20 us per chunk at every length, and linear (per-chunk CPU at the longest length <= 1.5x at the
 * shortest).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRouter, type Router } from 'voxroute';
import { encodeMultipart } from '../src/providers/openai/multipart.js';
import { transcriptionParts } from '../src/providers/openai/transcription.js';
import { collectAudio } from '../src/providers/shared/collect-audio.js';
import { benchArgs } from './args.js';

const args = benchArgs(import.meta.url, {
  minutes: { type: 'string', default: '1,4' },
  runs: { type: 'string', default: '3' },
});
const LENGTHS = args.minutes.split(',').map(Number);
const RUNS = Number(args.runs);
const HERE = dirname(fileURLToPath(import.meta.url));
const CHUNK_BYTES = 640;
const CHUNKS_PER_MINUTE = 3000;
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const TARGET_US = 20;

/** The caller's microphone: `chunks` chunks of 640 bytes, each a new array (as a capture gives). */
async function* microphone(chunks: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks; i++) {
    const chunk = new Uint8Array(CHUNK_BYTES);
    chunk[0] = i & 0xff;
    yield chunk;
  }
}

/** CPU (us) of `run`, user + system. */
async function cpu(run: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

async function direct(chunks: number): Promise<void> {
  const audio = await collectAudio(microphone(chunks), new AbortController().signal);
  const form = encodeMultipart(
    transcriptionParts(
      { audio: microphone(0), format: FORMAT, interim: false },
      { model: 'bench', streaming: false },
      audio,
    ),
  );
  if (form.body.byteLength < chunks * CHUNK_BYTES) throw new Error('short upload');
}

async function routed(router: Router, chunks: number): Promise<void> {
  let text = '';
  for await (const e of router.stt({ audio: microphone(chunks), format: FORMAT })) {
    if (e.type === 'final') text = e.text;
  }
  // The body holds the WAV header (44 bytes), the audio and the multipart framing.
  const body = Number(text);
  if (!(body > chunks * CHUNK_BYTES + 44)) throw new Error(`the server got ${text} bytes`);
}

async function startServer(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [resolve(HERE, '../scripts/run-ts.mjs'), resolve(HERE, 'stt-server.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [origin] = (await once(lines, 'line')) as [string];
  return { origin, child };
}

async function main(): Promise<void> {
  const { origin, child } = await startServer();
  const router = createRouter({
    providers: {
      local: {
        kind: 'openai-compatible',
        baseUrl: `${origin}/v1`,
        stt: { model: 'bench', streaming: false },
      },
    },
    routes: { stt: { providers: ['local'], firstChunkTimeoutMs: false } },
  });
  // Warm-up: the connection, and the JIT (a first call of 1 min costs several times the next).
  for (let i = 0; i < 3; i++) {
    await routed(router, CHUNKS_PER_MINUTE);
    await direct(CHUNKS_PER_MINUTE);
  }

  const rows: { minutes: number; chunks: number; direct: number; routed: number }[] = [];
  for (const minutes of LENGTHS) {
    const chunks = Math.round(minutes * CHUNKS_PER_MINUTE);
    let d = Number.POSITIVE_INFINITY;
    let r = Number.POSITIVE_INFINITY;
    for (let i = 0; i < RUNS; i++) {
      d = Math.min(d, await cpu(() => direct(chunks)));
      r = Math.min(r, await cpu(() => routed(router, chunks)));
    }
    rows.push({ minutes, chunks, direct: d / chunks, routed: r / chunks });
  }
  await router.close();
  child.stdin?.end();

  console.log(
    `STT input, OpenAI-compatible (16 kHz PCM s16le, 20 ms chunks), node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, best of ${RUNS}`,
  );
  console.log('  audio    chunks   direct us/chunk   routed us/chunk   routed CPU total   routed/direct');
  for (const row of rows)
    console.log(
      `  ${`${row.minutes} min`.padEnd(9)}${String(row.chunks).padStart(6)}${row.direct.toFixed(2).padStart(18)}${row.routed.toFixed(2).padStart(18)}${`${((row.routed * row.chunks) / 1e6).toFixed(3)} s`.padStart(19)}${`${(row.routed / row.direct).toFixed(1)}x`.padStart(16)}`,
    );
  console.log('\nTargets:');
  for (const row of rows)
    console.log(
      `  ${`routed CPU per 20 ms chunk <= ${TARGET_US} us (${row.minutes} min)`.padEnd(50)}${`${row.routed.toFixed(2)} us`.padEnd(14)}${row.routed <= TARGET_US ? 'met' : 'NOT met'}`,
    );
  const byLength = [...rows].sort((a, b) => a.minutes - b.minutes);
  const first = byLength[0];
  const last = byLength[byLength.length - 1];
  if (first && last && last !== first) {
    const ratio = last.routed / first.routed;
    console.log(
      `  ${`linear: per-chunk CPU at ${last.minutes} min <= 1.5x at ${first.minutes} min`.padEnd(50)}${`${ratio.toFixed(2)}x`.padEnd(14)}${ratio <= 1.5 ? 'met' : 'NOT met'}`,
    );
  }
}

await main();
