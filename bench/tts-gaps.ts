/**
 * TTS with no gaps (issue 14): a 4-sentence reply through `router.tts({ text })` against one
 * direct request for the whole utterance to the same loopback speech server.
 *
 * Run: `node scripts/run-ts.mjs bench/tts-gaps.ts [--pairs N] [--ttfb MS] [--gap MS]`
 *   --pairs N   measured (direct, routed) pairs, order flipped every pair   (default 5)
 *   --ttfb MS   the server's time to first byte per request                 (default 100)
 *   --gap MS    wait between 20 ms chunks: 20 streams in real time, 10 at 2x (default 10)
 *
 * Method. One OpenAI-compatible mock (voxroute/testing, on a loopback port) answers every
 * speech request after `--ttfb` ms with PCM s16le 24 kHz in 960-byte chunks (20 ms), one every
 * `--gap` ms. The direct side sends the four sentences as one input (joined without spaces,
 * so both sides receive exactly the same amount of audio) with undici; the routed side asks
 * the router for the same text (one request per sentence, pipelined). A simulated player
 * starts with the first 20 ms piece and plays 20 ms pieces in real time; silence is the time
 * it waits for a piece after it started. Time to last byte (TTLB) counts from the call.
 * Targets: routed silence <= direct silence + 5 ms; routed TTLB <= 1.05 x direct TTLB
 * (medians over pairs).
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createRouter } from 'voxroute';
import { createOpenAiCompatibleMock, startMockServer } from 'voxroute/testing';
import { benchArgs } from './args.js';

const args = benchArgs(import.meta.url, {
  pairs: { type: 'string', default: '5' },
  ttfb: { type: 'string', default: '100' },
  gap: { type: 'string', default: '10' },
});
const PAIRS = Number(args.pairs);
const TTFB = Number(args.ttfb);
const GAP = Number(args.gap);
const PIECE = 960; // 20 ms of 24 kHz s16le
const SENTENCES = [
  'Your table is booked for eight.',
  'We will send a confirmation by text.',
  'Parking is free after six.',
  'Is there anything else I can do?',
];

const mock = createOpenAiCompatibleMock({
  script: { speech: { headersDelayMs: TTFB, chunkBytes: PIECE, chunkGapMs: GAP } },
});
const server = await startMockServer({ provider: mock });
const router = createRouter({
  providers: {
    tts: { kind: 'openai-compatible', baseUrl: `${server.url}/v1`, tts: { voices: { agent: 'alloy' } } },
  },
  routes: { tts: { providers: ['tts'], strategy: 'priority' } },
});
await router.warmup();
const agent = new Agent({ keepAliveTimeout: 60_000 });

/** Arrival times (ms from the call) and sizes of the audio bytes. */
type Arrivals = { t: number; bytes: number }[];

async function direct(): Promise<Arrivals> {
  const t0 = performance.now();
  const res = await request(`${server.url}/v1/audio/speech`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tts-1',
      input: SENTENCES.join(''),
      voice: 'alloy',
      response_format: 'pcm',
    }),
  });
  const out: Arrivals = [];
  for await (const chunk of res.body)
    out.push({ t: performance.now() - t0, bytes: (chunk as Buffer).byteLength });
  return out;
}

async function routed(): Promise<Arrivals> {
  const t0 = performance.now();
  const out: Arrivals = [];
  for await (const chunk of router.tts({ text: SENTENCES.join(' '), voice: 'agent' }))
    out.push({ t: performance.now() - t0, bytes: chunk.data.byteLength });
  return out;
}

/** Silence a real-time player of 20 ms pieces hears after it started; total bytes; TTLB. */
function play(arrivals: Arrivals): { silenceMs: number; bytes: number; ttlbMs: number } {
  const total = arrivals.reduce((n, a) => n + a.bytes, 0);
  const pieces = Math.ceil(total / PIECE);
  let received = 0;
  let j = 0;
  let clock = Number.NaN;
  let silence = 0;
  for (let k = 0; k < pieces; k++) {
    const need = Math.min(total, (k + 1) * PIECE);
    while (received < need) received += arrivals[j++]!.bytes;
    const availableAt = arrivals[j - 1]!.t;
    if (Number.isNaN(clock)) clock = availableAt;
    else if (availableAt > clock) {
      silence += availableAt - clock;
      clock = availableAt;
    }
    clock += 20;
  }
  return { silenceMs: silence, bytes: total, ttlbMs: arrivals[arrivals.length - 1]!.t };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await direct();
await routed();
const rows: { d: ReturnType<typeof play>; r: ReturnType<typeof play> }[] = [];
for (let i = 0; i < PAIRS; i++) {
  if (i % 2 === 0) {
    const d = await direct();
    const r = await routed();
    rows.push({ d: play(d), r: play(r) });
  } else {
    const r = await routed();
    const d = await direct();
    rows.push({ d: play(d), r: play(r) });
  }
}
await router.close();
await agent.close();
await server.close();

const dSilence = median(rows.map((x) => x.d.silenceMs));
const rSilence = median(rows.map((x) => x.r.silenceMs));
const dTtlb = median(rows.map((x) => x.d.ttlbMs));
const rTtlb = median(rows.map((x) => x.r.ttlbMs));
const bytesSame = rows.every((x) => x.d.bytes === x.r.bytes);
const silenceMet = rSilence - dSilence <= 5;
const ttlbMet = rTtlb <= 1.05 * dTtlb;
console.log(
  `voxroute tts gaps: ${PAIRS} pairs, TTFB ${TTFB} ms, a 20 ms chunk every ${GAP} ms, node ${process.version}`,
);
console.log(`  audio bytes, direct = routed         ${bytesSame ? 'yes' : 'NO'} (${rows[0]!.d.bytes} bytes)`);
console.log(`  silence after start, direct (ms)     ${dSilence.toFixed(1)}`);
console.log(
  `  silence after start, routed (ms)     ${rSilence.toFixed(1)}   (target <= direct + 5: ${silenceMet ? 'met' : 'NOT met'})`,
);
console.log(`  time to last byte, direct (ms)       ${dTtlb.toFixed(1)}`);
console.log(
  `  time to last byte, routed (ms)       ${rTtlb.toFixed(1)}   (ratio ${(rTtlb / dTtlb).toFixed(3)}; target <= 1.05: ${ttlbMet ? 'met' : 'NOT met'})`,
);
