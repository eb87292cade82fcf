/**
 * CPU per audio chunk of a routed TTS stream, without network (issue 15, P6): what the router's
 * per-chunk path (provider adapter, sentence pump, attempt loop, the call's iterator) costs
 * beside a direct read of the same body, in one process.
 *
 * Run:
 *   node scripts/run-ts.mjs bench/chunk-cost.ts [--lib PATH]... [--streams N] [--rounds N]
 *
 *   --lib PATH   an ESM build of voxroute (repeatable; default dist/index.js). With two or more,
 *                their rounds alternate in one process, so a shared machine's drift falls on all
 *                of them alike (e.g. the tree before a change bundled into .scratch/before.js).
 *   --streams N  streams at once per round (default 100)
 *   --rounds N   rounds per side (default 15)
 *
 * Method. Every side reads `--streams` streams at once, each a body of 150 chunks of 960 bytes
 * (3 s of PCM s16le at 24 kHz in 20 ms chunks) that an in-process `fetch` yields as fast as it is
 * read. Sides: "direct" reads that fetch's Response body itself; for each build, `router.tts()`
 * in the caller's format (24 kHz asked: pass-through), asking for 16 kHz (24k -> 16k through
 * the resampler) and asking for 8 kHz mu-law (24k -> mu-law 8k), over an OpenAI-compatible provider whose transport is that fetch. CPU per
 * chunk: process.cpuUsage() over the round / (streams x 150). Each round also runs every side
 * with bodies of 30 chunks: the difference, / 120 chunks, is the CPU per chunk without the
 * per-call cost (planning, the request, the first chunk's path), which the first figure spreads
 * over 150 chunks. The sides' order rotates every round; min and median over rounds are
 * printed. For the converted sides, the real-time factor through the router: 20 ms of audio
 * per chunk / CPU per chunk (medians), against issue 15's P2 target (>= 1,000x per stream).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AudioFormat, Router } from 'voxroute';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const args = benchArgs(import.meta.url, {
  lib: { type: 'string', multiple: true },
  streams: { type: 'string', default: '100' },
  rounds: { type: 'string', default: '15' },
});
const STREAMS = Number(args.streams);
const ROUNDS = Number(args.rounds);
const LIBS = args.lib?.length ? args.lib : [resolve(HERE, '../dist/index.js')];
const CHUNKS = 150;
/** The short bodies' length: the per-call cost over fewer chunks. */
const SHORT = 30;
let chunks = CHUNKS;
const CHUNK_BYTES = 960;
const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const PCM_16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
const MULAW_8K: AudioFormat = { encoding: 'mulaw', sampleRate: 8_000, channels: 1 };
const CHUNK = new Uint8Array(CHUNK_BYTES).fill(1);

/** A fetch whose body yields CHUNKS chunks of CHUNK_BYTES, each as soon as it is read. */
function memoryFetch(): Promise<Response> {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i++ < chunks) controller.enqueue(CHUNK.slice());
      else controller.close();
    },
  });
  return Promise.resolve(
    new Response(body, { status: 200, headers: { 'content-type': 'application/octet-stream' } }),
  );
}

type Stream = () => Promise<number>;

async function direct(): Promise<number> {
  const response = await memoryFetch();
  const reader = response.body!.getReader();
  let bytes = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) return bytes;
    bytes += r.value.byteLength;
  }
}

function routed(router: Router, format: AudioFormat): Stream {
  return async () => {
    let bytes = 0;
    for await (const chunk of router.tts({ text: 'Hello there', voice: 'agent', format }))
      bytes += chunk.data.byteLength;
    return bytes;
  };
}

/** One round of a side with bodies of `n` chunks: CPU µs per chunk over `STREAMS` streams read at once. */
async function round(stream: Stream, expected: number, n: number): Promise<number> {
  chunks = n;
  const want = (expected * n) / CHUNKS;
  const cpu0 = process.cpuUsage();
  const bytes = await Promise.all(Array.from({ length: STREAMS }, stream));
  const cpu = process.cpuUsage(cpu0);
  for (const b of bytes) if (b !== want) throw new Error(`a stream gave ${b} bytes, not ${want}`);
  return (cpu.user + cpu.system) / (STREAMS * n);
}

async function main(): Promise<void> {
  const sides: { name: string; stream: Stream; expected: number }[] = [
    { name: 'direct read of the body', stream: direct, expected: CHUNKS * CHUNK_BYTES },
  ];
  const routers: Router[] = [];
  for (const [i, lib] of LIBS.entries()) {
    const voxroute: typeof import('voxroute') = await import(pathToFileURL(resolve(lib)).href);
    const router = voxroute.createRouter(
      voxroute.defineConfig({
        providers: {
          local: {
            kind: 'openai-compatible',
            baseUrl: 'http://bench.invalid/v1',
            tts: { model: 'bench', voices: { agent: 'agent' }, responseFormat: 'pcm', sampleRate: 24_000 },
          },
        },
        routes: { tts: { providers: ['local'] } },
      }),
      { fetch: memoryFetch as typeof fetch },
    );
    routers.push(router);
    const tag = LIBS.length > 1 ? ` #${i + 1}` : '';
    sides.push(
      {
        name: `routed${tag}, caller format`,
        stream: routed(router, PCM_24K),
        expected: CHUNKS * CHUNK_BYTES,
      },
      // 3 s at 16 kHz: two thirds of the bytes.
      {
        name: `routed${tag}, 24k -> 16k`,
        stream: routed(router, PCM_16K),
        expected: (CHUNKS * CHUNK_BYTES * 2) / 3,
      },
      // 3 s at 8 kHz, one byte a sample: a sixth of the bytes.
      {
        name: `routed${tag}, 24k -> mu-law 8k`,
        stream: routed(router, MULAW_8K),
        expected: (CHUNKS * CHUNK_BYTES) / 6,
      },
    );
  }
  try {
    for (let i = 0; i < 3; i++) for (const s of sides) await round(s.stream, s.expected, CHUNKS);
    const cpu = sides.map(() => [] as number[]);
    const slope = sides.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < sides.length; k++) {
        const j = (k + r) % sides.length;
        const side = sides[j]!;
        const long = await round(side.stream, side.expected, CHUNKS);
        const short = await round(side.stream, side.expected, SHORT);
        cpu[j]!.push(long);
        slope[j]!.push((long * CHUNKS - short * SHORT) / (CHUNKS - SHORT));
      }
    }
    console.log(
      `CPU µs per chunk: ${STREAMS} streams of ${CHUNKS} chunks of ${CHUNK_BYTES} bytes at once, ${ROUNDS} rounds per side`,
    );
    for (const [i, lib] of LIBS.entries()) if (LIBS.length > 1) console.log(`  #${i + 1}: ${lib}`);
    console.log(`  ${''.padEnd(34)}   per chunk (min, median)   without the per-call cost (min, median)`);
    for (const [j, s] of sides.entries()) {
      const a = summarize(cpu[j]!);
      const b = summarize(slope[j]!);
      console.log(
        `  ${s.name.padEnd(34)}${fmt(a.min, 2, 9)}${fmt(a.median, 2, 9)}          ${fmt(b.min, 2, 9)}${fmt(b.median, 2, 9)}`,
      );
    }
    // DESIGN.md: the router uses < 5 µs CPU per chunk (added to a direct read, caller format).
    const direct = summarize(cpu[0]!).median;
    for (const [j, s] of sides.entries()) {
      if (!s.name.endsWith('caller format')) continue;
      const added = summarize(cpu[j]!).median - direct;
      console.log(
        `  ${s.name}: added ${added.toFixed(2)} µs per chunk (medians), target < 5: ${added < 5 ? 'met' : 'NOT met'}`,
      );
    }
    // Issue 15, P2: conversion at >= 1,000x real time per stream through the router.
    for (const [j, s] of sides.entries()) {
      if (!s.name.includes('->')) continue;
      const median = summarize(cpu[j]!).median;
      const x = 20_000 / median;
      console.log(
        `  ${s.name}: ${x.toFixed(0)}x real time (20 ms per ${median.toFixed(2)} µs, median), target >= 1000x: ${x >= 1000 ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    for (const r of routers) await r.close();
  }
}

await main();
