/**
 * Memory over 10,000 calls with 10% injected faults (issue 12, load).
 *
 * `node scripts/run-ts.mjs bench/load.ts [--calls 10000] [--concurrency 100]` (`npm run bench:load`).
 *
 * One router, an OpenAI-compatible primary that injects a fault into one stream in ten (reset
 * before headers, reset mid-stream, 503, malformed frame) and a healthy backup, both served
 * from a child process (bench/load-server.ts, the wire of test/load/wire.ts) so that their
 * memory is not counted. Calls run `--concurrency` at a time, 5 TTS for every 2 STT (the
 * 500 + 200 of the load test); every stream's bytes are checked exactly: whole, or a typed
 * MidStreamError whose delivered bytes are an exact prefix. After every 1,000 calls (when all
 * of them have ended) the heap is sampled after a forced gc (`heapUsed`; external + array buffers shown too).
 *
 * Targets: every stream whole or an exact-prefix MidStreamError (0 lost, 0 duplicated, 0 other
 * errors); memory flat: the last heap sample is within max(+2 MB, +10%) of the sample after
 * warm-up (the one at 1,000 calls).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRouter, MidStreamError } from 'voxroute';
import { STT_CHUNKS, sttChunk, sttText, TTS_CHUNK_BYTES, ttsAudio } from '../test/load/wire.js';
import { benchArgs } from './args.js';

const args = benchArgs(import.meta.url, {
  calls: { type: 'string', default: '10000' },
  concurrency: { type: 'string', default: '100' },
});
const CALLS = Number(args.calls);
const CONCURRENCY = Number(args.concurrency);
const SAMPLE_EVERY = 1_000;
const HERE = dirname(fileURLToPath(import.meta.url));
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const MB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Outcome = 'whole' | 'mid-stream-prefix' | 'wrong-bytes' | 'other-error';

async function startServers(): Promise<{ primary: string; backup: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [resolve(HERE, '../scripts/run-ts.mjs'), resolve(HERE, 'load-server.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  const [primary, backup] = line.split(' ') as [string, string];
  return { primary, backup, child };
}

async function* microphone(id: number): AsyncGenerator<Uint8Array> {
  for (let k = 0; k < STT_CHUNKS; k++) yield sttChunk(id, k);
}

function memory(): { heap: number; external: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

async function main(): Promise<void> {
  const { primary, backup, child } = await startServers();
  const router = createRouter({
    providers: {
      primary: {
        kind: 'openai-compatible',
        baseUrl: primary,
        tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' },
        stt: { model: 'whisper', streaming: false },
      },
      backup: {
        kind: 'openai-compatible',
        baseUrl: backup,
        tts: { voices: { agent: 'alloy' } },
        stt: { model: 'whisper', streaming: false },
      },
    },
    defaults: {
      routes: {
        strategy: 'priority',
        firstChunkTimeoutMs: false,
        idleTimeoutMs: 30_000,
        connectTimeoutMs: 20_000,
      },
    },
    routes: { tts: { providers: ['primary', 'backup'] }, stt: { providers: ['primary', 'backup'] } },
  });

  const tts = async (id: number): Promise<Outcome> => {
    const expected = ttsAudio(id);
    const got: Buffer[] = [];
    try {
      for await (const chunk of router.tts({ text: `stream ${id}.`, voice: 'agent' }))
        got.push(Buffer.from(chunk.data));
    } catch (error) {
      const delivered = Buffer.concat(got);
      if (!MidStreamError.isInstance(error) || delivered.byteLength === 0) return 'other-error';
      const prefix = delivered.equals(expected.subarray(0, delivered.byteLength));
      return prefix && delivered.byteLength % TTS_CHUNK_BYTES === 0 ? 'mid-stream-prefix' : 'wrong-bytes';
    }
    return Buffer.concat(got).equals(expected) ? 'whole' : 'wrong-bytes';
  };
  const stt = async (id: number): Promise<Outcome> => {
    const texts: string[] = [];
    try {
      for await (const e of router.stt({ audio: microphone(id), format: FORMAT }))
        if (e.type === 'final') texts.push(e.text);
    } catch {
      return 'other-error';
    }
    return texts.length === 1 && texts[0] === sttText(id) ? 'whole' : 'wrong-bytes';
  };

  const counts: Record<Outcome, number> = {
    whole: 0,
    'mid-stream-prefix': 0,
    'wrong-bytes': 0,
    'other-error': 0,
  };
  const samples: { calls: number; heap: number; external: number; ms: number }[] = [];
  const t0 = performance.now();
  let done = 0;
  // Batches of SAMPLE_EVERY calls, CONCURRENCY at a time; a heap sample after each batch, when
  // every stream of the batch has ended.
  for (let batch = 0; batch < CALLS; batch += SAMPLE_EVERY) {
    const end = Math.min(CALLS, batch + SAMPLE_EVERY);
    let next = batch;
    const worker = async () => {
      for (let id = next++; id < end; id = next++) {
        counts[await (id % 7 < 5 ? tts(id) : stt(id))]++;
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    samples.push({ calls: done, ...memory(), ms: performance.now() - t0 });
  }
  await router.close();
  child.stdin?.end();

  console.log(
    `${CALLS} calls (5 tts : 2 stt), ${CONCURRENCY} at a time, 10% injected faults, node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `  outcomes: ${counts.whole} whole, ${counts['mid-stream-prefix']} MidStreamError with an exact prefix, ${counts['wrong-bytes']} wrong bytes, ${counts['other-error']} other errors`,
  );
  console.log('  calls    heap MB   external+buffers MB   elapsed s');
  for (const s of samples)
    console.log(
      `  ${String(s.calls).padStart(6)}${(s.heap / MB).toFixed(2).padStart(10)}${(s.external / MB).toFixed(2).padStart(22)}${(s.ms / 1000).toFixed(1).padStart(12)}`,
    );
  const warm = samples[0];
  const last = samples.at(-1);
  console.log('\nTargets:');
  const outcomesMet = counts['wrong-bytes'] + counts['other-error'] === 0 && done === CALLS;
  console.log(
    `  ${'every stream whole or an exact-prefix MidStreamError'.padEnd(64)}${`${counts['wrong-bytes']} wrong / ${counts['other-error']} other`.padEnd(30)}${outcomesMet ? 'met' : 'NOT met'}`,
  );
  if (warm && last && last !== warm) {
    const growth = last.heap - warm.heap;
    const allowed = Math.max(2 * MB, 0.1 * warm.heap);
    console.log(
      `  ${`memory flat: heap at ${last.calls} <= heap at ${warm.calls} + max(2 MB, 10%)`.padEnd(64)}${`${growth >= 0 ? '+' : ''}${(growth / MB).toFixed(2)} MB (allowed +${(allowed / MB).toFixed(2)})`.padEnd(30)}${growth <= allowed ? 'met' : 'NOT met'}`,
    );
  } else {
    console.log('  memory flat: not measured (fewer than two samples; use --calls >= 2000)  NOT met');
  }
}

await main();
