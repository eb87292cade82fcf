import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { orderCandidates } from '../../src/routing/select.js';
import {
  createManualDelay,
  createOpenAiCompatibleMock,
  type MockScript,
  type PerCall,
  startMockServer,
} from '../../src/testing/index.js';
import { drain } from '../helpers/index.js';
import { ManualClock } from './helpers.js';

const first = { coldStart: true, firstCall: true } as const;

/**
 * Two OpenAI-compatible mocks on loopback, `a` answering chat as `aChat` scripts it and `b`
 * after a 1 ms header delay, each waiting on its manual delay; a router over both by latency on a
 * manual clock. `served(who, ms)` makes one chat call, lets `who` answer after `ms` on the
 * router's clock, expects no error, and returns the provider that served it.
 */
async function latencyPair(aChat: PerCall<MockScript>) {
  const clock = new ManualClock();
  const ta = createManualDelay();
  const tb = createManualDelay();
  const a = createOpenAiCompatibleMock({ delay: ta.delay, script: { chat: aChat } });
  const b = createOpenAiCompatibleMock({ delay: tb.delay, script: { chat: { headersDelayMs: 1 } } });
  const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'm' } },
  });
  const router = createRouter(
    {
      providers: { a: provider(sa.url), b: provider(sb.url) },
      routes: { chat: { providers: ['a', 'b'], strategy: 'latency', firstChunkTimeoutMs: false } },
    },
    { clock },
  );
  const served = async (who: 'a' | 'b', ms: number) => {
    const s = router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' });
    const done = drain(s);
    const time = who === 'a' ? ta : tb;
    await time.whenWaiting();
    clock.advance(ms);
    await time.release();
    expect((await done).error).toBeUndefined();
    return (await s.result).provider;
  };
  return { a, b, sa, sb, router, served };
}

describe('a first call is an upper bound, replaced by the first warm sample', () => {
  it('the cold first call is the score meanwhile, asks for a re-try, and the warm sample replaces it', () => {
    const t = new LatencyTracker({ decayMs: 10_000 });
    const k = LatencyTracker.key('ec2-a', 'stt', 'm');
    t.recordSuccess(k, 399, 0, first);
    expect(t.score(k)).toBe(399);
    expect(t.coldBound(k)).toEqual({ ms: 399, retry: true, failed: false });
    // Not part of the learned distribution: the tail model has nothing yet.
    expect(t.model(k, 0)).toBeUndefined();
    t.recordSuccess(k, 30, 1_000);
    // Replaced, not averaged: 30, where folding would give 399 x e^-0.1 + 30 x (1 - e^-0.1) = 363.9.
    expect(t.score(k)).toBe(30);
    expect(t.ewma(k)).toBe(30);
    expect(t.coldBound(k)).toBeUndefined();
    const s = t.snapshot(k);
    expect([s.samples, s.p50Ms, s.p99Ms]).toEqual([2, 30, 30]);
  });

  it('a failure after the cold first call ends the re-try request; the bound stays the score until a warm sample', () => {
    const t = new LatencyTracker();
    const k = LatencyTracker.key('ec2-a', 'chat', 'm');
    t.recordSuccess(k, 250, 0, first);
    t.recordFailure(k, 10, 5);
    expect(t.coldBound(k)).toEqual({ ms: 250, retry: false, failed: true });
    expect(t.score(k)).toBe(250);
    t.recordSuccess(k, 40, 20);
    expect(t.score(k)).toBe(40);
    expect(t.coldBound(k)).toBeUndefined();
  });

  it('a cold start after a long idle is not a first call: averaged in, no re-try request', () => {
    const t = new LatencyTracker({ decayMs: 1_000 });
    const k = LatencyTracker.key('ec2-a', 'tts', 'v');
    t.recordSuccess(k, 100, 0);
    t.recordSuccess(k, 500, 1_000, { coldStart: true });
    expect(t.coldBound(k)).toBeUndefined();
    expect(t.score(k)).toBeCloseTo(100 * Math.exp(-1) + 500 * (1 - Math.exp(-1)), 10);
  });

  it('latency order: never-tried first, then a candidate waiting for its warm re-try, then by score', () => {
    const base = { lastTriedAt: 0, healthy: true };
    const order = (candidates: Parameters<typeof orderCandidates>[0]) =>
      orderCandidates(candidates, { strategy: 'latency', now: 100 });
    const a = { ...base, index: 0, scoreMs: 399, retrySoon: true };
    const b = { ...base, index: 1, scoreMs: 70, retrySoon: true };
    expect(order([a, b])).toEqual([0, 1]);
    expect(order([a, { ...b, retrySoon: false }])).toEqual([0, 1]);
    expect(
      order([
        { ...a, retrySoon: false },
        { ...b, retrySoon: false },
      ]),
    ).toEqual([1, 0]);
    // An attempt already running on it: no second re-try at once.
    expect(
      order([
        { ...a, inFlight: 1 },
        { ...b, retrySoon: false },
      ]),
    ).toEqual([1, 0]);
    // A never-tried candidate goes before a re-try.
    expect(order([a, b, { index: 2, scoreMs: undefined, lastTriedAt: undefined }])).toEqual([2, 1, 0]);
  });

  it('the router: a provider slow only on its first call is re-tried at once and wins on its warm score', async () => {
    const { a, b, sa, sb, router, served } = await latencyPair({ headersDelayMs: 1 });
    /** One call whose provider answers after `ms` on the router's clock (a's wait or b's). */
    const call = (ms: { a?: number; b?: number }) =>
      served(ms.a !== undefined ? 'a' : 'b', ms.a ?? ms.b ?? 0);
    try {
      // a's first call pays for the cold start (399 ms), b's for less (70 ms).
      expect(await call({ a: 399 })).toBe('a');
      expect(await call({ b: 70 })).toBe('b');
      const score = (p: string) => router.stats().providers.find((x) => x.provider === p)?.scoreMs;
      expect([score('a'), score('b')]).toEqual([399, 70]);
      // Each is re-tried once, warm; the warm samples replace the bounds.
      expect(await call({ a: 30 })).toBe('a');
      expect(await call({ b: 60 })).toBe('b');
      expect([score('a'), score('b')]).toEqual([30, 60]);
      // From then on, the lower score: a.
      expect(await call({ a: 30 })).toBe('a');
      expect(await call({ a: 30 })).toBe('a');
      expect([a.calls('chat'), b.calls('chat')]).toEqual([4, 2]);
    } finally {
      await router.close();
      await Promise.all([sa.close(), sb.close()]);
    }
  });
  it('the router: a provider that fails after its fast first call is not first choice on the next calls', async () => {
    // a answers its first call (30 ms) and fails every later one with 503; b always answers.
    const { a, b, sa, sb, router, served } = await latencyPair(({ call }) =>
      call === 1 ? { headersDelayMs: 1 } : { failTimes: 99, failStatus: 503 },
    );
    /** One call served by `who` after `ms` on the router's clock (a failure of a comes first, at once). */
    const call = served;
    try {
      expect(await call('a', 30)).toBe('a');
      expect(await call('b', 70)).toBe('b');
      // a's warm re-try fails (503): a fallback to b.
      expect(await call('b', 60)).toBe('b');
      expect(a.calls('chat')).toBe(2);
      // Without a warm sample, a's 30 ms first call would keep it first; its latest outcome is a
      // failure, so b (answered) goes first, and a is not asked again.
      expect(await call('b', 60)).toBe('b');
      expect(await call('b', 60)).toBe('b');
      expect([a.calls('chat'), b.calls('chat')]).toEqual([2, 4]);
    } finally {
      await router.close();
      await Promise.all([sa.close(), sb.close()]);
    }
  });
});
