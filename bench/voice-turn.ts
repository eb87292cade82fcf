/**
 * voxroute's own share of a voice turn (issue 14, DESIGN.md "Performance targets"):
 * `TurnResult.timeline.ownMs` over N turns of `voiceTurn()` on loopback mocks.
 *
 * Run: `node scripts/run-ts.mjs bench/voice-turn.ts [--turns N] [--warmup N] [--dist]`
 *   --turns N    measured turns               (default 100)
 *   --warmup N   turns run first, not recorded (default 10)
 *   --dist       load voxroute from the built dist/index.js (run `npm run build` first)
 *
 * Method. One OpenAI-compatible mock (voxroute/testing) on a loopback port in this process
 * serves the three stages: transcription after 40 ms, a chat reply of 12 deltas after 60 ms
 * (one every 5 ms), speech after 50 ms to first byte. The router's warmup() runs first. Each
 * turn sends 200 ms of PCM s16le 16 kHz and reads the whole turn. ownMs is the critical path
 * (end of speech -> first audio) minus the time waiting on providers as the router measures
 * it: the STT's wait for its final, chat's and TTS's time from their first attempt's start to
 * their first chunk (TTS starts at the first token, so its wait includes the LLM's time from
 * first token to first clause). Adapter and
 * transport work inside an attempt counts as provider time here; bench/overhead.ts measures
 * that part against direct requests. Targets: ownMs p50 <= 5 ms, p99 <= 10 ms.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createOpenAiCompatibleMock, startMockServer } from 'voxroute/testing';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const args = benchArgs(import.meta.url, {
  turns: { type: 'string', default: '100' },
  warmup: { type: 'string', default: '10' },
  dist: { type: 'boolean', default: false },
});
const TURNS = Number(args.turns);
const WARMUP = Number(args.warmup);
const HERE = dirname(fileURLToPath(import.meta.url));
const voxroute: typeof import('voxroute') = args.dist
  ? await import(pathToFileURL(resolve(HERE, '../dist/index.js')).href)
  : await import('voxroute');

const DELTAS = ['Sure', ',', ' your', ' table', ' is', ' booked', '.', ' See', ' you', ' at', ' eight', '.'];
const mock = createOpenAiCompatibleMock({
  transcript: 'Book a table for two at eight.',
  chat: { deltas: DELTAS },
  script: {
    transcription: { headersDelayMs: 40 },
    chat: { headersDelayMs: 60, chunkGapMs: 5 },
    speech: { headersDelayMs: 50 },
  },
});
const server = await startMockServer({ provider: mock });
const router = voxroute.createRouter({
  providers: {
    p: {
      kind: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      chat: { models: { fast: 'm' } },
      tts: { voices: { agent: 'alloy' } },
      stt: { model: 's' },
    },
  },
  routes: {
    stt: { providers: ['p'], strategy: 'priority' },
    chat: { providers: ['p'], strategy: 'priority' },
    tts: { providers: ['p'], strategy: 'priority' },
  },
});
await router.warmup();

async function* audio(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < 10; i++) yield new Uint8Array(640);
}

async function turn() {
  const t = voxroute.voiceTurn(router, {
    audio: audio(),
    format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 },
    messages: [],
    model: 'fast',
    voice: 'agent',
    budgetMs: 1000,
  });
  for await (const _ of t) {
    // read the whole turn
  }
  return (await t.result).timeline;
}

for (let i = 0; i < WARMUP; i++) await turn();
const timelines = [];
for (let i = 0; i < TURNS; i++) timelines.push(await turn());
await router.close();
await server.close();

const own = summarize(timelines.map((t) => t.ownMs));
const path = summarize(timelines.map((t) => t.firstAudioMs! - t.endOfSpeechMs));
const p50Met = own.median <= 5;
const p99Met = own.p99 <= 10;
console.log(
  `voxroute voice turn: ${TURNS} turns (+${WARMUP} warmup), node ${process.version}, voxroute from ${args.dist ? 'dist/' : 'src/ (jiti)'}`,
);
console.log(`  end of speech -> first audio (ms)   p50 ${fmt(path.median)}  p99 ${fmt(path.p99)}`);
console.log(
  `  own share, p50 (ms)                 ${fmt(own.median)}   (target <= 5: ${p50Met ? 'met' : 'NOT met'})`,
);
console.log(
  `  own share, p99 (ms)                 ${fmt(own.p99)}   (target <= 10: ${p99Met ? 'met' : 'NOT met'})`,
);
