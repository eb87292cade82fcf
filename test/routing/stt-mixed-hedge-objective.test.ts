/**
 * On a route with a learned hedge delay (`'auto'`, `'p95'`, `'p99'`), a streaming STT provider
 * (one that answers when the speaker pauses) is never hedged by it (stt-transcription-lag.test.ts).
 * Its objective, which the `latency` strategy ranks by, must then count its tail unhedged: on a
 * route that mixes it with a batch STT provider, the objective counted a hedge at its knee to
 * that provider, so a streaming provider that stalls on one call in five ranked first, and its
 * stalls went unhedged to the caller. And the batch provider, whose clock starts when the audio
 * ends, counts its hedge delay from there too (it counted it from the attempt's start: every
 * utterance longer than its delay was hedged). Deepgram (streaming) and an OpenAI-compatible
 * transcription server (batch) are this test's own loopback servers; the router's clock is the
 * test's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type RouteResult, type Router, type RouterConfig } from '../../src/index.js';
import { httpServer, readBody } from '../cases/wire/servers.js';
import { ManualClock } from './helpers.js';
import { deepgramServer, FORMAT, speak } from './stt-paced.js';

let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

/** A route `stt` of Deepgram (streaming) and an OpenAI-compatible transcription server (batch), measured. */
async function setup(
  clock: ManualClock,
): Promise<{ router: Router; run: (route: string, lagMs: number) => Promise<RouteResult> }> {
  // Deepgram: one final covering the audio, at CloseStream.
  const dg = await deepgramServer();
  // OpenAI-compatible transcription: answers 300 ms (of the test's clock) after the whole file.
  const oai = await httpServer(async (req, res) => {
    await readBody(req);
    clock.advance(300);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'book a table' }));
  });
  const key = ['test', 'key'].join('-');
  const made = createRouter(
    {
      providers: {
        dg: { kind: 'deepgram', baseUrl: dg.url, apiKey: key, stt: { model: 'nova-3' } },
        oai: {
          kind: 'openai-compatible',
          baseUrl: `${oai.url}/v1`,
          apiKey: key,
          stt: { model: 'whisper-1' },
        },
      },
      routes: {
        stt: {
          providers: ['dg', 'oai'],
          strategy: 'latency',
          hedge: { after: 'auto', maxShare: 0.3 },
          connectTimeoutMs: 60_000,
        },
        onlyDg: { capability: 'stt', providers: ['dg'], connectTimeoutMs: 60_000 },
        onlyOai: { capability: 'stt', providers: ['oai'], connectTimeoutMs: 60_000 },
      },
    } satisfies RouterConfig,
    { clock },
  );
  router = made;
  const run = async (route: string, lagMs: number) => {
    const call = made.stt({ audio: speak(clock, 500, lagMs), format: FORMAT, route });
    const texts: string[] = [];
    for await (const e of call) texts.push(e.text);
    expect(texts).toEqual(['book a table']);
    return call.result;
  };
  // 'dg' lags 50 ms after the audio on four calls in five and 2 s on the fifth; 'oai' answers
  // 300 ms after the audio ends.
  for (let i = 0; i < 15; i++) {
    await run('onlyDg', i % 5 === 4 ? 2_000 : 50);
    await run('onlyOai', 0);
  }
  return { router: made, run };
}

describe('a mixed STT route (streaming and batch) with a learned hedge delay', () => {
  it('ranks the streaming provider by its tail unhedged, as it runs', async () => {
    const clock = new ManualClock();
    const { router, run } = await setup(clock);
    const dg = router.stats().providers.find((p) => p.provider === 'dg')!;
    expect([dg.p50Ms, dg.p90Ms]).toEqual([50, 2_000]);
    // Unhedged, 'dg' expects about 0.8 x 50 + 0.2 x 2,000 = 440 ms, and more for its tail:
    // 'oai' (300 ms) goes first. Counted hedged at its knee (about 63 ms) to 'oai', 'dg' went first.
    const mixed = await run('stt', 50);
    expect(mixed.attempts[0]!.provider).toBe('oai');
    expect(router.stats().providers.find((p) => p.provider === 'dg')!.hedgeAfterMs).toBeUndefined();
  });

  it("counts the batch provider's hedge delay from the end of the audio, as its TTFC", async () => {
    const clock = new ManualClock();
    const { router, run } = await setup(clock);
    const hedgeAfterMs = () => router.stats().providers.find((p) => p.provider === 'oai')!.hedgeAfterMs!;
    // 500 ms of speech, then 'oai' answers 300 ms after the audio, within its delay: no hedge.
    const mixed = await run('stt', 50);
    expect(hedgeAfterMs()).toBeGreaterThan(300);
    expect(hedgeAfterMs()).toBeLessThan(500);
    expect(mixed.attempts.map((a) => [a.provider, a.outcome])).toEqual([['oai', 'success']]);
  });
});
