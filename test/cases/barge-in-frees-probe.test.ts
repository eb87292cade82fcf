/**
 * A barge-in (the request's signal aborted) after the first chunk of a half-open breaker's probe
 * frees the probe slot, as breaking out of the loop does: the barge-in is not the provider's
 * outcome, and the next call probes the provider again. Before the fix the slot stayed taken
 * until the breaker's probe timeout (30 s): every call in between passed the provider over, so
 * one barge-in kept a recovered provider out of the route for half a minute. The servers are
 * this test's own loopback node:http servers speaking OpenAI's chat SSE; the router's clock is
 * the test's, so the cooldown ends when the test says.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, createRouter, type Router } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { ManualClock } from '../routing/helpers.js';
import { chatChunk, httpServer, readBody, sseFrames } from './wire/servers.js';

const DONE = sseFrames([chatChunk({}, 'stop'), '[DONE]']);

async function ask(r: Router, signal?: AbortSignal, onFirst?: () => void) {
  const call = r.chat({
    messages: [{ role: 'user', content: 'Hi' }],
    model: 'f',
    ...(signal ? { signal } : {}),
  });
  let error: unknown;
  try {
    for await (const _event of call) onFirst?.();
  } catch (e) {
    error = e;
  }
  return { error, result: await call.result.catch((e: unknown) => e) };
}

const breakers = (r: Router) => r.stats().providers.map((p) => [p.provider, p.breaker, p.errors]);

describe('a barge-in during a half-open probe frees the probe slot', () => {
  it('the next call probes the provider again (and closes its breaker)', async () => {
    let asked = 0;
    const probing = deferred();
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      asked++;
      if (asked === 1) {
        // One 503 with Retry-After opens the breaker at once, for 1 s.
        res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error":{"message":"busy"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseFrames([chatChunk({ content: 'Hello.' })]));
      if (asked === 2)
        probing.resolve(); // the probe: a first delta, then nothing
      else res.end(DONE);
    });
    const b = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseFrames([chatChunk({ content: 'Backup.' })]) + DONE);
    });
    const clock = new ManualClock();
    const r = createRouter(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { f: 'm' } } },
          b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, chat: { models: { f: 'm' } } },
        },
        routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
      },
      { clock, random: () => 0.5 },
    );
    try {
      expect((await ask(r)).result).toMatchObject({ provider: 'b' });
      expect(breakers(r)).toEqual([
        ['a', 'open', 1],
        ['b', 'closed', 0],
      ]);
      clock.advance(1_000);

      const bargeIn = new AbortController();
      const probe = await ask(r, bargeIn.signal, () => bargeIn.abort());
      expect(probe.error).toBeInstanceOf(AbortError);
      expect(probe.result).toBeInstanceOf(AbortError);
      await probing.promise;
      expect(breakers(r)).toEqual([
        ['a', 'half-open', 1],
        ['b', 'closed', 0],
      ]);

      expect((await ask(r)).result).toMatchObject({ provider: 'a' });
      expect(asked).toBe(3);
      expect(breakers(r)).toEqual([
        ['a', 'closed', 1],
        ['b', 'closed', 0],
      ]);
    } finally {
      await r.close();
    }
  });
});
