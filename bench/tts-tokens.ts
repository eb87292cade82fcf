/**
 * First audio of LLM tokens spoken through a provider that takes streamed text (issue 14,
 * "raw tokens"): `router.tts({ text: tokens })` on a loopback Cartesia mock (WebSocket
 * contexts, `continue: true`, a flush at each clause end the router finds).
 *
 * Run: `node scripts/run-ts.mjs bench/tts-tokens.ts [--pairs N] [--token-gap MS] [--ttfb MS]`
 *   --pairs N       measured pairs, order flipped every pair (default 20; 2 pairs of warmup)
 *   --token-gap MS  time between the LLM's tokens (default 20: 50 tokens/s)
 *   --ttfb MS       the mock's delay before the first audio of a context (default 50)
 *
 * Two ways of starting tts(), side by side on one router (warm socket) and on a new router
 * per call (cold socket):
 * - `at first clause` (how voiceTurn() started TTS before): tts() is called once the first
 *   clause exists (the token after "eight. " arrived); the provider then gets the first clause
 *   at once, as when the router fed it whole clauses;
 * - `at first token` (now): tts() is called with the first token; the router forwards each
 *   token as it comes and flushes at the clause end.
 * Measured: first clause -> first audio, and first token -> first audio (ms, medians).
 * The mock speaks the text it has as soon as it gets it (real Cartesia waits for a flush or
 * its buffer delay), so first token -> first audio `at first token` is a lower bound of
 * what a real provider gives; first clause -> first audio is the comparable figure.
 * Target: `at first token` first clause -> first audio <= `at first clause` (no later audio).
 */
import { performance } from 'node:perf_hooks';
import { createRouter, type Router } from 'voxroute';
import { createCartesiaMock, startMockServer } from 'voxroute/testing';
import { LLM_TOKENS as TOKENS } from '../test/helpers/llm-tokens.js';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const args = benchArgs(import.meta.url, {
  pairs: { type: 'string', default: '20' },
  'token-gap': { type: 'string', default: '20' },
  ttfb: { type: 'string', default: '50' },
});
const PAIRS = Number(args.pairs);
const GAP = Number(args['token-gap']);
const TTFB = Number(args.ttfb);
const KEY = 'bench-key';
/** The first clause ("Sure, your table is booked for eight. ") exists once this token arrived. */
const FIRST_CLAUSE_AT = 9;

const mock = createCartesiaMock({ apiKey: KEY, script: { 'tts-websocket': { firstChunkDelayMs: TTFB } } });
const server = await startMockServer({ provider: mock });
const makeRouter = (): Router =>
  createRouter({
    providers: {
      sonic: {
        kind: 'cartesia',
        baseUrl: server.url,
        apiKey: KEY,
        tts: { voices: { agent: 'voice-1' }, transport: 'websocket' },
      },
    },
    routes: { tts: { providers: ['sonic'], strategy: 'priority' } },
  });

type Mode = 'clause' | 'token';

/** One call: the LLM's tokens every GAP ms; tts() started per `mode`. Times from the first token. */
async function once(router: Router, mode: Mode): Promise<{ fromToken: number; fromClause: number }> {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  async function* text(): AsyncGenerator<string> {
    for (;;) {
      if (queue.length > 0) yield queue.shift()!;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  let firstToken = 0;
  let firstClause = 0;
  let firstAudio = 0;
  let reading: Promise<void> | undefined;
  const start = () => {
    const stream = router.tts({ text: text(), voice: 'agent' });
    reading = (async () => {
      for await (const _ of stream) firstAudio ||= performance.now();
    })();
  };
  for (let i = 0; i < TOKENS.length; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, GAP));
    queue.push(TOKENS[i]!);
    const now = performance.now();
    if (i === 0) firstToken = now;
    if (i === FIRST_CLAUSE_AT) firstClause = now;
    if ((mode === 'token' && i === 0) || (mode === 'clause' && i === FIRST_CLAUSE_AT)) start();
    wake?.();
  }
  ended = true;
  wake?.();
  await reading;
  return { fromToken: firstAudio - firstToken, fromClause: firstAudio - firstClause };
}

const results: Record<string, { fromToken: number[]; fromClause: number[] }> = {};
const record = (key: string, r: { fromToken: number; fromClause: number }) => {
  results[key] ??= { fromToken: [], fromClause: [] };
  results[key].fromToken.push(r.fromToken);
  results[key].fromClause.push(r.fromClause);
};
const warm = makeRouter();
for (let i = 0; i < 2 + PAIRS; i++) {
  const order: Mode[] = i % 2 === 0 ? ['clause', 'token'] : ['token', 'clause'];
  for (const mode of order) {
    const w = await once(warm, mode);
    const cold = makeRouter();
    const c = await once(cold, mode);
    await cold.close();
    if (i >= 2) {
      record(`${mode} warm`, w);
      record(`${mode} cold`, c);
    }
  }
}
await warm.close();
await server.close();

console.log(`tts-tokens: ${PAIRS} pairs, a token every ${GAP} ms, mock TTFB ${TTFB} ms (medians, ms)`);
console.log('tts() started      socket  first clause -> audio  first token -> audio');
const median = (v: number[]) => summarize(v).median;
for (const socket of ['warm', 'cold']) {
  for (const mode of ['clause', 'token'] as const) {
    const r = results[`${mode} ${socket}`]!;
    console.log(
      `${mode === 'clause' ? 'at first clause' : 'at first token '}    ${socket}  ${fmt(median(r.fromClause), 1, 21)}  ${fmt(median(r.fromToken), 1, 20)}`,
    );
  }
  const before = median(results[`clause ${socket}`]!.fromClause);
  const after = median(results[`token ${socket}`]!.fromClause);
  console.log(
    `  ${socket}: first clause -> audio ${fmt(after - before, 1, 0)} ms vs at first clause: ${after <= before ? 'met' : 'not met'}`,
  );
}
