import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, type ProviderStats, type TimeoutError } from '../../src/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { FakeClock } from '../transport/fake-clock.js';
import { answerChat, drain, httpServer, router } from './wire/servers.js';

/**
 * Kind: a caller's first-chunk deadline, shorter than the route's, that cuts a provider is a
 * censored latency sample, not nothing. The provider took at least the time waited: that raises
 * its latency estimate, so a provider that keeps running past its callers' deadlines (accepts
 * the request, never sends a byte) loses the first place to one that answers, under the
 * `latency` strategy, while it is still not charged as a failure (no error, error rate 0,
 * breaker closed). Before, the cut was recorded only where the provider already had a score,
 * and not as an outcome: a provider never measured stayed "never tried" and was probed first on
 * every call, ~190 ms of a voice turn's 400 ms budget lost each time.
 *
 * Each provider is a loopback server speaking the OpenAI chat wire; the router's clock is a
 * fake one that the test moves once a server has a request: a `hang` server never answers (the
 * clock moves to the attempt's deadline), an `answer` server answers after `afterMs` of the
 * router's time.
 */

const ROUTE_FIRST_CHUNK_MS = 2_000;
const PROBE_AFTER_MS = 10_000;

type Mode = { kind: 'hang' } | { kind: 'answer'; afterMs: number };

async function setup(names: readonly string[], probeAfterMs = PROBE_AFTER_MS) {
  const modes = new Map<string, Mode>();
  const arrived: { name: string; res: ServerResponse }[] = [];
  let wake: (() => void) | undefined;
  const providers: Record<string, unknown> = {};
  for (const name of names) {
    const wire = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrived.push({ name, res });
        wake?.();
      });
    });
    providers[name] = { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, chat: { models: { m: 'm' } } };
  }
  const clock = new FakeClock();
  const r = router(
    {
      providers: providers as never,
      routes: {
        chat: {
          providers: [...names],
          strategy: 'latency',
          firstChunkTimeoutMs: ROUTE_FIRST_CHUNK_MS,
          probeAfterMs,
        },
      },
    },
    { clock },
  );
  const nextArrival = () =>
    new Promise<{ name: string; res: ServerResponse }>((resolve) => {
      const take = () => {
        const next = arrived.shift();
        if (!next) return false;
        wake = undefined;
        resolve(next);
        return true;
      };
      if (!take()) wake = () => void take();
    });

  /**
   * One chat call with the caller's `firstChunkTimeoutMs` (none: the route's): the providers it
   * tried, in order, and how it ended.
   */
  const call = async (firstChunkTimeoutMs?: number) => {
    const stream = r.chat({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      ...(firstChunkTimeoutMs !== undefined ? { firstChunkTimeoutMs } : {}),
    });
    const done = drain(stream);
    const tried: string[] = [];
    for (;;) {
      const next = await Promise.race([nextArrival(), done.then(() => 'done' as const)]);
      if (next === 'done') break;
      tried.push(next.name);
      const mode = modes.get(next.name)!;
      // The last candidate keeps the route's own deadline (a tight caller's deadline makes a
      // call fall back sooner, never turns a late answer into none).
      const last = tried.length === names.length;
      const deadline = last || firstChunkTimeoutMs === undefined ? ROUTE_FIRST_CHUNK_MS : firstChunkTimeoutMs;
      if (mode.kind === 'answer' && mode.afterMs < deadline) {
        clock.advance(mode.afterMs);
        answerChat(next.res, 'Hello.');
        continue;
      }
      // No answer before the deadline: the clock moves to it.
      clock.advance(deadline);
    }
    const { error } = await done;
    const result = await stream.result.catch((e: unknown) => e);
    return { tried, error, result };
  };
  const stats = (name: string): ProviderStats => r.stats().providers.find((p) => p.provider === name)!;
  return { modes, clock, call, stats };
}

/** The figures of a provider's stats that say whether it was charged. */
function charged(s: ProviderStats) {
  return {
    errors: s.errors,
    errorRate: s.errorRate,
    breaker: s.breaker,
    misconfigured: s.misconfigured,
    down: s.down,
  };
}
const NOT_CHARGED = { errors: 0, errorRate: 0, breaker: 'closed', misconfigured: false, down: false };

describe('a provider cut by callers’ deadlines moves back (latency strategy)', () => {
  it('never measured, hangs: tried once, then after the one that answers until its probe; recovers at the probe', async () => {
    const { modes, clock, call, stats } = await setup(['hung', 'fast']);
    modes.set('hung', { kind: 'hang' });
    modes.set('fast', { kind: 'answer', afterMs: 7 });
    const orders: string[][] = [];
    for (let i = 0; i < 6; i++) {
      const { tried, error } = await call(190);
      expect(error).toBeUndefined();
      orders.push(tried);
    }
    expect(orders).toEqual([['hung', 'fast'], ['fast'], ['fast'], ['fast'], ['fast'], ['fast']]);
    expect(charged(stats('hung'))).toEqual(NOT_CHARGED);
    expect(stats('hung')).toMatchObject({
      attempts: 1,
      samples: 0,
      callerTimeouts: 1,
      lowerBoundMs: 190,
      p50Ms: undefined,
      lastUpdateMs: 190,
    });

    // probeAfterMs later it is tried first once more (the route's probe), and falls back again.
    clock.advance(PROBE_AFTER_MS + 1);
    expect((await call(190)).tried).toEqual(['hung', 'fast']);
    expect((await call(190)).tried).toEqual(['fast']);
    expect(stats('hung')).toMatchObject({ attempts: 2, callerTimeouts: 2, lowerBoundMs: 190, errors: 0 });

    // Recovered, faster than `fast`: the next probe measures it and it takes the first place
    // (`fast`, idle as long, is probed once too).
    modes.set('hung', { kind: 'answer', afterMs: 3 });
    clock.advance(PROBE_AFTER_MS + 1);
    const after: string[][] = [];
    for (let i = 0; i < 5; i++) after.push((await call(190)).tried);
    expect(after).toEqual([['hung'], ['fast'], ['hung'], ['hung'], ['hung']]);
    expect(stats('hung')).toMatchObject({ samples: 4, callerTimeouts: 2, lowerBoundMs: undefined, p50Ms: 3 });
    expect(charged(stats('hung'))).toEqual(NOT_CHARGED);
  });

  it('measured fast, then hangs: loses the first place at once; once recovered, regains it from its probes', async () => {
    const { modes, clock, call, stats } = await setup(['a', 'b']);
    modes.set('a', { kind: 'answer', afterMs: 10 });
    modes.set('b', { kind: 'answer', afterMs: 20 });
    const warm: string[][] = [];
    for (let i = 0; i < 8; i++) warm.push((await call()).tried);
    // Each tried first once (never tried, then its cold first call re-tried), then a, the faster.
    expect(warm).toEqual([['a'], ['b'], ['a'], ['b'], ['a'], ['a'], ['a'], ['a']]);

    modes.set('a', { kind: 'hang' });
    const hung: string[][] = [];
    for (let i = 0; i < 6; i++) hung.push((await call(100)).tried);
    // One cut at 100 ms, ten times its median and a tail it never had, puts b first from the
    // next call on.
    expect(hung).toEqual([['a', 'b'], ['b'], ['b'], ['b'], ['b'], ['b']]);
    expect(charged(stats('a'))).toEqual(NOT_CHARGED);
    expect(stats('a')).toMatchObject({ samples: 6, callerTimeouts: 1, lowerBoundMs: 100 });

    // Recovered. One call every 2.5 s: the probe after probeAfterMs finds it fast again.
    modes.set('a', { kind: 'answer', afterMs: 10 });
    const back: string[][] = [];
    for (let i = 0; i < 16; i++) {
      clock.advance(2_500);
      back.push((await call(100)).tried);
    }
    // a is probed every probeAfterMs (every fourth call) and answers; the one cut's tail fades
    // under its answers (as a slow answer's would): from its third probe on it is first again
    // (b, idle that long, is probed once in turn).
    expect(back.map((t) => t.join('>'))).toEqual([
      ...['b', 'b', 'b', 'a'],
      ...['b', 'b', 'b', 'a'],
      ...['b', 'b', 'b', 'a'],
      ...['a', 'a', 'b', 'a'],
    ]);
    expect(stats('a').lowerBoundMs).toBeUndefined();
  });

  it('measured only by its cold first call, then hangs: the cut outweighs that bound', async () => {
    const { modes, call, stats } = await setup(['a', 'b']);
    modes.set('a', { kind: 'answer', afterMs: 30 });
    modes.set('b', { kind: 'answer', afterMs: 50 });
    const orders: string[][] = [];
    orders.push((await call(190)).tried, (await call(190)).tried);
    modes.set('a', { kind: 'hang' });
    for (let i = 0; i < 4; i++) orders.push((await call(190)).tried);
    // a's cold first call (30 ms) is an upper bound it is re-tried for; cut at 190 ms, it took at
    // least that: it ranks by 190 ms, after b (50 ms), not by its 30 ms.
    expect(orders).toEqual([['a'], ['b'], ['a', 'b'], ['b'], ['b'], ['b']]);
    expect(stats('a')).toMatchObject({ samples: 1, callerTimeouts: 1, lowerBoundMs: 190 });
    expect(charged(stats('a'))).toEqual(NOT_CHARGED);
  });

  it('both slower than a very tight caller deadline: the order settles, no flip-flop, nothing charged', async () => {
    const { modes, call, stats } = await setup(['a', 'b']);
    modes.set('a', { kind: 'answer', afterMs: 50 });
    modes.set('b', { kind: 'answer', afterMs: 60 });
    const orders: string[][] = [];
    for (let i = 0; i < 12; i++) {
      const { tried, error } = await call(5);
      expect(error).toBeUndefined();
      orders.push(tried);
    }
    // Each answers only as the last candidate (its route deadline). A cut at 5 ms, below what
    // each is known to take, says nothing: once both answered, a (the faster) is tried first on
    // every call and b answers; the cuts never swap them.
    expect(orders.slice(0, 2)).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(orders.slice(2)).toEqual(Array(10).fill(['a', 'b']));
    expect(charged(stats('a'))).toEqual(NOT_CHARGED);
    expect(charged(stats('b'))).toEqual(NOT_CHARGED);
    expect(stats('a')).toMatchObject({ callerTimeouts: 11, samples: 1, lowerBoundMs: 5 });
    expect(stats('b')).toMatchObject({ callerTimeouts: 1, samples: 11, lowerBoundMs: undefined });
  });

  it('all hang: AllProvidersFailedError; the caller’s cut is not charged, the last one’s route deadline is', async () => {
    const { modes, call, stats } = await setup(['a', 'b']);
    modes.set('a', { kind: 'hang' });
    modes.set('b', { kind: 'hang' });
    const { tried, error, result } = await call(190);
    expect(tried).toEqual(['a', 'b']);
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    expect(result).toBe(error);
    const attempts = (error as AllProvidersFailedError).attempts;
    expect(
      attempts.map((a) => {
        const e = a.error as TimeoutError;
        return [a.provider, a.outcome, e.name, e.phase, e.timeoutMs, e.setting];
      }),
    ).toEqual([
      ['a', 'failed', 'TimeoutError', 'first-chunk', 190, 'firstChunkTimeoutMs'],
      ['b', 'failed', 'TimeoutError', 'first-chunk', ROUTE_FIRST_CHUNK_MS, 'firstChunkTimeoutMs'],
    ]);
    expect(charged(stats('a'))).toEqual(NOT_CHARGED);
    expect(stats('a')).toMatchObject({ callerTimeouts: 1, lowerBoundMs: 190 });
    expect(stats('b')).toMatchObject({ callerTimeouts: 0, errors: 1, errorRate: 1, breaker: 'closed' });
  });
});

describe('LatencyTracker.recordCallerTimeout', () => {
  it('is an outcome but not a failure; its lower bound lasts until an answer', () => {
    const t = new LatencyTracker();
    const k = LatencyTracker.key('p', 'tts', 'v');
    t.recordCallerTimeout(k, 190, 1_000);
    expect(t.lastTriedAt(k)).toBe(1_000);
    expect(t.snapshot(k)).toMatchObject({
      callerTimeouts: 1,
      lowerBoundMs: 190,
      errors: 0,
      errorRate: 0,
      samples: 0,
      scoreMs: undefined,
    });
    t.recordCallerTimeout(k, 120, 2_000);
    expect(t.lowerBound(k)).toBe(190);
    t.recordSuccess(k, 30, 3_000);
    expect(t.snapshot(k)).toMatchObject({
      callerTimeouts: 2,
      lowerBoundMs: undefined,
      samples: 1,
      errorRate: 0,
    });
  });

  it('a cold first call re-tried soon is no longer once a caller deadline cut it', () => {
    const t = new LatencyTracker();
    const k = LatencyTracker.key('p', 'tts', 'v');
    t.recordSuccess(k, 80, 100, { coldStart: true, firstCall: true });
    expect(t.coldBound(k)).toEqual({ ms: 80, retry: true, failed: false });
    t.recordCallerTimeout(k, 50, 200);
    expect(t.coldBound(k)).toEqual({ ms: 80, retry: false, failed: false });
  });
});
