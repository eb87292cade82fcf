/**
 * C17, hedged: the first choice fails fast just after its hedge started (an in-band error after
 * a preamble, an empty audio answer), and the hedge, now running alone, accepts the request and
 * sends nothing. The hedge is then waited on no longer than its own hedge delay: the next
 * candidate starts beside it there, as it would have had the first choice failed before the
 * hedge delay (the hedge would then have been a plain fallback, hedged in its turn). Before,
 * the call sat silent until the hedge's first-chunk deadline (10 s here). Servers speak the wire
 * on their own (loopback); the first choice answers only once the hedge's request has arrived,
 * so the order of events does not depend on timing, and a first call to c alone loads
 * voxroute's code before the timed call.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RouteConfig, RouterConfig } from '../../src/index.js';
import {
  answerChat,
  answerPcm,
  chatChunk,
  closed,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

const HEDGE_MS = 100;
// The hedge timer runs from b's start inside the router; `startedAtMs` is read a moment later, and
// timers may fire up to a millisecond early against it: c started at b's hedge delay, not at once.
const HEDGE_SLACK_MS = 10;
// Long, so that the hedge delay (0.1 s) and this deadline stay apart on a loaded machine: the
// calls are asserted to end before half of it.
const FIRST_CHUNK_MS = 10_000;
const ROUTE: Omit<RouteConfig, 'providers'> = {
  strategy: 'priority',
  hedge: { after: HEDGE_MS },
  firstChunkTimeoutMs: FIRST_CHUNK_MS,
  idleTimeoutMs: FIRST_CHUNK_MS,
};
const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const AUDIO = pcmSignal(2400, 24_000);

/** b: accepts (200 and its headers) and sends nothing more, the socket left open. */
const silent = (contentType: string) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': contentType });
  res.flushHeaders();
};

/**
 * a (answering with `failA` once b's request has arrived), b (with `stallB`) and c (with
 * `answerC`), each an OpenAI-compatible server of its own; the route of `capability` over a, b,
 * c with a fixed 100 ms hedge, and a route `warm` of c alone, called once here.
 */
async function threeProviders(
  capability: 'chat' | 'tts',
  failA: (res: ServerResponse) => void,
  stallB: (res: ServerResponse) => void,
  answerC: (res: ServerResponse) => void,
) {
  const b = await httpServer(async (req, res) => {
    await readBody(req);
    stallB(res);
  });
  const a = await httpServer(async (req, res) => {
    await readBody(req);
    await b.request(1);
    failA(res);
  });
  const c = await httpServer(async (req, res) => {
    await readBody(req);
    answerC(res);
  });
  const section =
    capability === 'chat' ? { chat: { models: { fast: 'm' } } } : { tts: { voices: { agent: 'v' } } };
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    ...section,
  });
  const config: RouterConfig = {
    providers: { a: provider(a.url), b: provider(b.url), c: provider(c.url) },
    routes: {
      [capability]: { providers: ['a', 'b', 'c'], ...ROUTE },
      warm: { capability, providers: ['c'] },
    },
  };
  const r = router(config);
  // One call to c alone first, so the timed call does not pay for loading voxroute's code.
  const warm =
    capability === 'chat'
      ? r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi.' }], route: 'warm' })
      : r.tts({ text: 'Hi.', voice: 'agent', format: PCM24K, route: 'warm' });
  expect((await drain(warm as AsyncIterable<unknown>)).error).toBeUndefined();
  return { a, b, c, r };
}

describe('C17 hedged: a hedge left alone by a failed first choice is waited on no longer than its hedge delay', () => {
  it('C17: chat, a fails with an in-band error after a preamble once the hedge b started; b is silent; c serves at b’s hedge delay', async () => {
    const { b, r } = await threeProviders(
      'chat',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          sseFrames([
            chatChunk({ role: 'assistant', content: '' }),
            { error: { type: 'overloaded_error', code: 'overloaded', message: 'busy' } },
          ]),
        );
      },
      silent('text/event-stream'),
      (res) => answerChat(res, 'Table booked.'),
    );
    const started = performance.now();
    const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Book a table.' }] });
    const { items, error } = await drain(stream);
    const elapsed = performance.now() - started;
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'text-delta', text: 'Table booked.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const result = await stream.result;
    expect(result.provider).toBe('c');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'aborted'],
      ['c', 'success'],
    ]);
    // c starts at b's hedge delay, not at once (b was fresh) nor at b's first-chunk deadline.
    const [, bAt, cAt] = result.attempts.map((x) => x.startedAtMs);
    expect(cAt! - bAt!).toBeGreaterThanOrEqual(HEDGE_MS - HEDGE_SLACK_MS);
    expect(cAt! - bAt!).toBeLessThan(FIRST_CHUNK_MS);
    expect(elapsed).toBeLessThan(FIRST_CHUNK_MS);
    await closed(b.sockets[0]!);
  });

  it('C17: tts, a answers 200 audio/pcm with no audio once the hedge b started; b is silent; c speaks at b’s hedge delay', async () => {
    const { b, r } = await threeProviders(
      'tts',
      (res) => answerPcm(res, new Uint8Array(0)),
      silent('audio/pcm'),
      (res) => answerPcm(res, AUDIO),
    );
    const started = performance.now();
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent', format: PCM24K });
    const { items, error } = await drain(stream);
    const elapsed = performance.now() - started;
    expect(error).toBeUndefined();
    expect(concat(items.map((chunk) => chunk.data)).equals(AUDIO)).toBe(true);
    const result = await stream.result;
    expect(result.provider).toBe('c');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'aborted'],
      ['c', 'success'],
    ]);
    const [, bAt, cAt] = result.attempts.map((x) => x.startedAtMs);
    expect(cAt! - bAt!).toBeGreaterThanOrEqual(HEDGE_MS - HEDGE_SLACK_MS);
    expect(cAt! - bAt!).toBeLessThan(FIRST_CHUNK_MS);
    expect(elapsed).toBeLessThan(FIRST_CHUNK_MS);
    await closed(b.sockets[0]!);
  });
});
