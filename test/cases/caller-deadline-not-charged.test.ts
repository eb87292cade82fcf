import { describe, expect, it } from 'vitest';
import { type BreakerEvent, type RouterEvents, TimeoutError } from '../../src/index.js';
import { FakeClock } from '../transport/fake-clock.js';
import { answerChat, drain, httpServer, router } from './wire/servers.js';

/**
 * Kind: a first-chunk deadline of the caller's own, shorter than the route's, is not charged to
 * the provider. A per-call `firstChunkTimeoutMs` (voiceTurn's budget gives one to chat() and
 * tts()) shorter than the route's passes while the provider is still within the time its route
 * allows it: the attempt fails over with a TimeoutError, but the provider's latency figures get
 * no failure and its circuit breaker counts nothing. A per-call deadline equal to the route's
 * (or none) is charged as before: five in a row open the breaker.
 *
 * Provider `slow` is a loopback server that takes the request and never answers; `fast`
 * answers at once. The route takes them in the listed order (`priority`), so `slow` is tried
 * first on every call. The router's clock is a fake one, moved once `slow` has the request.
 */

const ROUTE_FIRST_CHUNK_MS = 2_000;

async function setup() {
  const slow = await httpServer((req) => {
    req.resume();
  });
  const fast = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => answerChat(res, 'Hello.'));
  });
  const clock = new FakeClock();
  const r = router(
    {
      providers: {
        slow: { kind: 'openai-compatible', baseUrl: `${slow.url}/v1`, chat: { models: { fast: 'm' } } },
        fast: { kind: 'openai-compatible', baseUrl: `${fast.url}/v1`, chat: { models: { fast: 'm' } } },
      },
      routes: {
        chat: {
          providers: ['slow', 'fast'],
          strategy: 'priority',
          firstChunkTimeoutMs: ROUTE_FIRST_CHUNK_MS,
        },
      },
    },
    { clock },
  );
  const breakers: BreakerEvent[] = [];
  const errors: RouterEvents['error'][] = [];
  r.on('breaker', (e) => breakers.push(e));
  r.on('error', (e) => errors.push(e));
  /** One chat call whose first attempt (`slow`) times out after `waitMs` on the fake clock. */
  const call = async (n: number, waitMs: number, firstChunkTimeoutMs?: number) => {
    const stream = r.chat({
      model: 'fast',
      messages: [{ role: 'user', content: 'hi' }],
      ...(firstChunkTimeoutMs !== undefined ? { firstChunkTimeoutMs } : {}),
    });
    const items = drain(stream);
    await slow.request(n);
    clock.advance(waitMs);
    const { items: got, error } = await items;
    expect(error).toBeUndefined();
    expect(got.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    return stream.result;
  };
  const statsOf = (provider: string) => {
    const s = r.stats().providers.find((p) => p.provider === provider)!;
    return {
      attempts: s.attempts,
      samples: s.samples,
      errors: s.errors,
      errorRate: s.errorRate,
      breaker: s.breaker,
    };
  };
  return { r, call, statsOf, breakers, errors };
}

describe('a caller deadline shorter than the route’s is not charged', () => {
  it('per-call firstChunkTimeoutMs 500 (route 2000): five timeouts, no failure recorded, breaker closed', async () => {
    const { call, statsOf, breakers, errors } = await setup();
    for (let n = 1; n <= 5; n++) {
      const result = await call(n, 500, 500);
      expect(result.provider).toBe('fast');
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['slow', 'failed'],
        ['fast', 'success'],
      ]);
      const error = result.attempts[0]!.error;
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).phase).toBe('first-chunk');
      expect((error as TimeoutError).timeoutMs).toBe(500);
      expect((error as TimeoutError).setting).toBe('firstChunkTimeoutMs');
    }
    expect(statsOf('slow')).toEqual({ attempts: 5, samples: 0, errors: 0, errorRate: 0, breaker: 'closed' });
    expect(statsOf('fast')).toEqual({ attempts: 5, samples: 5, errors: 0, errorRate: 0, breaker: 'closed' });
    expect(breakers).toEqual([]);
    // The caller still hears of each timeout (the fallback is not silent).
    expect(errors.map((e) => [e.provider, (e.error as TimeoutError).timeoutMs])).toEqual(
      Array(5).fill(['slow', 500]),
    );
  });

  it('per-call firstChunkTimeoutMs equal to the route’s: charged, five open the breaker', async () => {
    const { call, statsOf, breakers } = await setup();
    for (let n = 1; n <= 5; n++) {
      const result = await call(n, ROUTE_FIRST_CHUNK_MS, ROUTE_FIRST_CHUNK_MS);
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['slow', 'failed'],
        ['fast', 'success'],
      ]);
    }
    expect(statsOf('slow')).toEqual({ attempts: 5, samples: 0, errors: 5, errorRate: 1, breaker: 'open' });
    expect(breakers.map((b) => [b.provider, b.capability, b.from, b.to, b.reason])).toEqual([
      ['slow', 'chat', 'closed', 'open', 'consecutive-failures'],
    ]);
  });

  it('no per-call deadline (the route’s own): charged', async () => {
    const { call, statsOf } = await setup();
    const result = await call(1, ROUTE_FIRST_CHUNK_MS);
    expect((result.attempts[0]!.error as TimeoutError).timeoutMs).toBe(ROUTE_FIRST_CHUNK_MS);
    expect(statsOf('slow')).toEqual({ attempts: 1, samples: 0, errors: 1, errorRate: 1, breaker: 'closed' });
  });
});
