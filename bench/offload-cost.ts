/**
 * Main-thread CPU per converted 20 ms chunk, resampling on the event loop against on the worker
 * thread (issue 15, P6; docs/decisions.md "Resampling on a worker thread"). From source.
 *
 * Run:
 *   node scripts/run-ts.mjs bench/offload-cost.ts [--streams N] [--chunks C] [--rounds R]
 *
 * Method: N streams (default 300) of PCM s16le 24 kHz -> 16 kHz, through the router's
 * ResampleOffload with threshold `false` (inline: Speex on the event loop) and `0` (every stream
 * on the worker); C chunks of 960 bytes each (default 150), one chunk of every stream per turn
 * of the event loop (as paced streams arrive), then every stream flushed and closed, all
 * outputs delivered. Time on a CPU of the main thread and of the process's other threads (the
 * worker, V8's and libuv's helpers) from /proc/self/task/<tid>/schedstat (Linux), divided by
 * N x C. Rounds alternate the two modes (inline first, then worker first), R of each (default 5);
 * prints min and median.
 */
import { ResampleOffload } from '../src/audio/resample-offload.js';
import { ResampleThread } from '../src/audio/resample-thread.js';
import type { StreamConverter } from '../src/audio/stream-converter.js';
import type { AudioFormat } from '../src/types/audio.js';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';
import { openThreadClock } from './thread-clock.js';

const args = benchArgs(import.meta.url, {
  streams: { type: 'string', default: '300' },
  chunks: { type: 'string', default: '150' },
  rounds: { type: 'string', default: '5' },
});
const N = Number(args.streams);
const C = Number(args.chunks);
const R = Number(args.rounds);
const FROM: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const TO: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };

const clock = openThreadClock();
if (!clock) {
  console.error('offload-cost: needs Linux (/proc/self/task/<tid>/schedstat)');
  process.exit(2);
}
const chunk = new Uint8Array(960);
const view = new DataView(chunk.buffer);
for (let i = 0; i < 480; i++) view.setInt16(i * 2, Math.round(12_000 * Math.sin(i * 0.07)), true);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One run of `mode`; returns [main, others] µs per chunk. */
async function once(offload: ResampleOffload): Promise<[number, number]> {
  let bytes = 0;
  const deliver = (data: Uint8Array) => {
    bytes += data.byteLength;
  };
  const converters: StreamConverter[] = [];
  for (let s = 0; s < N; s++) converters.push(await offload.converter(FROM, TO, deliver));
  clock!.refresh();
  const r0 = clock!.read();
  for (let c = 0; c < C; c++) {
    for (const converter of converters) converter.push(chunk);
    await turn();
  }
  await Promise.all(converters.map((converter) => converter.flush()));
  for (const converter of converters) converter.close();
  const r1 = clock!.read();
  if (bytes !== N * C * 640) throw new Error(`offload-cost: ${bytes} bytes out, want ${N * C * 640}`);
  const per = N * C * 1000;
  return [(r1.mainRunNs - r0.mainRunNs) / per, (r1.othersRunNs - r0.othersRunNs) / per];
}

const inline = new ResampleOffload(() => new ResampleThread(), false);
const worker = new ResampleOffload(() => new ResampleThread(), 0);
const results = { inline: [[], []] as number[][], worker: [[], []] as number[][] };
// One warm-up run of each (JIT, the worker's start), not counted.
await once(inline);
await once(worker);
for (let r = 0; r < R; r++) {
  const order = r % 2 === 0 ? (['inline', 'worker'] as const) : (['worker', 'inline'] as const);
  for (const mode of order) {
    const [main, others] = await once(mode === 'inline' ? inline : worker);
    results[mode][0]!.push(main);
    results[mode][1]!.push(others);
  }
}
await worker.close();
console.log(
  `${N} streams x ${C} chunks (24k -> 16k PCM s16le, 960 bytes in), ${R} rounds, µs of CPU per chunk (min / median)`,
);
for (const mode of ['inline', 'worker'] as const) {
  const main = summarize(results[mode][0]!);
  const others = summarize(results[mode][1]!);
  console.log(
    `  ${mode.padEnd(8)} main thread ${fmt(main.min, 2, 7)} / ${fmt(main.median, 2, 6)}    other threads ${fmt(others.min, 2, 7)} / ${fmt(others.median, 2, 6)}`,
  );
}
