/**
 * CPU per 20 ms chunk of `createAudioConverter` alone (issue 15, P2 and P6): PCM s16le 24 kHz
 * to PCM s16le 16 kHz and to mu-law 8 kHz, builds side by side in one process.
 *
 * Run:
 *   node scripts/run-ts.mjs bench/convert-cost.ts [--lib PATH]... [--rounds N]
 *
 *   --lib PATH   an ESM build of voxroute (repeatable; default dist/index.js). Every round runs
 *                every build and pair, the builds' order alternating, so a shared machine's
 *                drift falls on all of them alike (e.g. the tree before a change bundled into
 *                .scratch/before.js, and after).
 *   --rounds N   rounds (default 15)
 *
 * Method: 60 s of speech-like PCM (two sines, peak about 15,000) pushed through one converter
 * in 960-byte chunks (20 ms at 24 kHz), then flushed; CPU is process.cpuUsage() over the
 * pushes / 3,000 chunks. Prints min and median over rounds, the real-time factor of the median
 * (20 ms / CPU per chunk) and the ratio of each build's median to the first build's.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AudioFormat } from 'voxroute';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const args = benchArgs(import.meta.url, {
  lib: { type: 'string', multiple: true },
  rounds: { type: 'string', default: '15' },
});
const LIBS = args.lib?.length ? args.lib : [resolve(HERE, '../dist/index.js')];
const ROUNDS = Number(args.rounds);
const CHUNKS = 3000;
const FROM: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const TO: AudioFormat[] = [
  { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 },
  { encoding: 'mulaw', sampleRate: 8_000, channels: 1 },
];

const pcm = new Uint8Array(CHUNKS * 960);
const view = new DataView(pcm.buffer);
for (let i = 0; i < CHUNKS * 480; i++)
  view.setInt16(i * 2, Math.round(12_000 * Math.sin(i * 0.07) + 3_000 * Math.sin(i * 1.3)), true);

const builds: typeof import('voxroute')[] = [];
for (const lib of LIBS) builds.push(await import(pathToFileURL(resolve(lib)).href));
const cpu = LIBS.map(() => TO.map(() => [] as number[]));

for (let r = 0; r < ROUNDS + 2; r++) {
  for (let k = 0; k < builds.length; k++) {
    const b = (k + r) % builds.length;
    for (const [t, to] of TO.entries()) {
      const conv = await builds[b]!.createAudioConverter(FROM, to);
      const start = process.cpuUsage();
      for (let i = 0; i < CHUNKS; i++) conv.push(pcm.subarray(i * 960, i * 960 + 960));
      const used = process.cpuUsage(start);
      conv.flush();
      conv.close();
      // The first two rounds warm up (module load, JIT).
      if (r >= 2) cpu[b]![t]!.push((used.user + used.system) / CHUNKS);
    }
  }
}

console.log(`CPU µs per 20 ms chunk of createAudioConverter, PCM s16le 24 kHz in, ${ROUNDS} rounds`);
for (const [i, lib] of LIBS.entries()) console.log(`  #${i + 1}: ${lib}`);
for (const [t, to] of TO.entries()) {
  const first = summarize(cpu[0]![t]!).median;
  for (const [b] of LIBS.entries()) {
    const s = summarize(cpu[b]![t]!);
    console.log(
      `  #${b + 1} -> ${`${to.encoding} ${to.sampleRate / 1000}k`.padEnd(16)} min${fmt(s.min, 2, 7)}  median${fmt(s.median, 2, 7)}  ${(20_000 / s.median).toFixed(0).padStart(5)}x real time  ${(s.median / first).toFixed(2)} of #1`,
    );
  }
}
