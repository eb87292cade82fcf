import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { objectiveMs } from '../../src/routing/hedge-delay.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { shiftRun, TailModel } from '../../src/routing/tail.js';
import { drain, type LoopbackServer, startLoopbackServer } from '../helpers/index.js';
import { ManualClock } from './helpers.js';

const delta = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const stop = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;

/** A model that answered `n` calls in `ms`, one every 40 ms from 40. */
function answered(n: number, ms: number): TailModel {
  const m = new TailModel();
  for (let i = 1; i <= n; i++) m.record(ms, i * 40);
  return m;
}

describe('consecutive-failures: the failure share of the next call after k failures in a row', () => {
  it('k >= shiftRun(f0) failures in a row, f0 the share before them, make the provider down: its next call is planned to fail, with no fading', () => {
    const m = answered(10, 30);
    m.recordFailure(2, 1_000);
    expect(m.at(1_000)!.down).toBeUndefined();
    m.recordFailure(2, 1_040);
    // f0 = 0 (it never failed before): 2 in a row are enough.
    expect(m.at(1_040)!.down).toBe(true);
    expect(m.at(1_040)!.recentFailShare).toBe(1);
    // Still down a minute later: only an answer (a probe, a fallback, a hedge) ends it.
    expect(m.at(61_040)!.recentFailShare).toBe(1);
    m.record(30, 61_040);
    expect(m.at(61_040)!.down).toBeUndefined();
    expect(m.at(61_040)!.recentFailShare).toBeUndefined();
  });

  it('a cold-start answer (not folded into the latency) ends the run too: a failure after it starts a new run', () => {
    const t = new LatencyTracker();
    let now = 0;
    for (let i = 0; i < 10; i++) {
      t.recordSuccess('p', 50, now, { coldStart: i === 0, firstCall: i === 0 });
      now += 100;
    }
    t.recordFailure('p', now, 5);
    now += 100;
    t.recordFailure('p', now, 5);
    expect(t.snapshot('p').down).toBe(true);
    expect(t.model('p', now)!.recentFailShare).toBe(1);
    const p50 = t.model('p', now)!.p50Ms;
    // Six minutes later (past the cold-start idle) it answers: a cold start, still an answer.
    now += 360_000;
    t.recordSuccess('p', 60, now, { coldStart: true });
    expect(t.snapshot('p').down).toBe(false);
    expect(t.model('p', now)!.down).toBeUndefined();
    expect(t.model('p', now)!.recentFailShare).toBeUndefined();
    // The cold 60 ms is not part of the distribution: the median is still the warm answers'.
    expect(t.model('p', now)!.p50Ms).toBe(p50);
    // One failure after it is a new run of one, not the third of the old run: not down.
    now += 100;
    t.recordFailure('p', now, 5);
    expect(t.snapshot('p').down).toBe(false);
    expect(t.model('p', now)!.down).toBeUndefined();
    now += 100;
    t.recordFailure('p', now, 5);
    expect(t.snapshot('p').down).toBe(true);
  });

  it('a provider that fails often needs a longer run: at f0 = 0.1, three in a row', () => {
    // 36 answers then 4 isolated failures, at one instant (no time decay): f0 close to 0.1.
    const m = new TailModel();
    for (let i = 0; i < 40; i++) {
      if (i % 10 === 9) m.recordFailure(2, 0);
      else m.record(30, 0);
    }
    m.record(30, 0);
    const f0 = m.at(0)!.failShare;
    expect(f0).toBeGreaterThan(0.08);
    expect(f0).toBeLessThan(0.1);
    expect(shiftRun(f0)).toBe(3);
    m.recordFailure(2, 0);
    m.recordFailure(2, 0);
    expect(m.at(0)!.down).toBeUndefined();
    m.recordFailure(2, 0);
    expect(m.at(0)!.down).toBe(true);
  });

  it('a provider that fails fast is down after two failures: J = failMs + the fallback, above the backup it falls back to', () => {
    const a = answered(10, 30);
    const b = answered(10, 60).summary()!;
    a.recordFailure(2, 1_000);
    // One failure: the fast provider still wins on its long-run share (the known trade-off).
    // No failure was ever followed by another: the after-failure share is its prior, the long-run share.
    expect(a.at(1_000)!.recentFailShare).toBeCloseTo(a.at(1_000)!.failShare, 12);
    expect(objectiveMs(a.at(1_000)!, b, undefined)).toBeLessThan(objectiveMs(b, b, undefined));
    a.recordFailure(2, 1_040);
    const down = a.at(1_040)!;
    expect(objectiveMs(down, b, undefined)).toBeCloseTo(2 + objectiveMs(b, undefined, undefined), 9);
  });
});

describe('consecutive-failures: the router over loopback servers', () => {
  const servers: LoopbackServer[] = [];
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    router = undefined;
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  /**
   * A chat server that, per call (1-based), either answers one delta after `ms` on the router's
   * clock or fails with 503 after `ms`.
   */
  async function serve(clock: ManualClock, plan: (call: number) => { ms: number; fails: boolean }) {
    let call = 0;
    const server = await startLoopbackServer((_req, res: ServerResponse) => {
      const { ms, fails } = plan(++call);
      clock.advance(ms);
      if (fails) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${delta('Booked.')}${stop}data: [DONE]\n\n`);
    });
    servers.push(server);
    return server;
  }

  // Per route: the calls while a fails (its 4th to 6th calls), as provider:outcome.
  const routes = {
    // Fails once and stays first (its failure share is low); fails again: down, b goes first.
    'latency without hedge': {
      setting: { strategy: 'latency' as const },
      failing: ['a:failed b:success', 'a:failed b:success', 'b:success', 'b:success'],
    },
    // The fallback takes a token of the budget: priced, one failure is enough for b to go first.
    "latency with hedge: { after: 'auto' }": {
      setting: { strategy: 'latency' as const, hedge: { after: 'auto' as const, maxShare: 0.1 } },
      failing: ['a:failed b:success', 'b:success', 'b:success', 'b:success'],
    },
  };

  it.each(Object.entries(routes))(
    'consecutive-failures: a provider failing its last calls fast loses first place, until a probe shows it answers (%s)',
    async (_name, { setting, failing }) => {
      const clock = new ManualClock();
      // a answers in 30 ms until its 4th call, then fails with a 503 after 2 ms until it recovers;
      // b answers in 60 ms.
      let aDown = true;
      const a = await serve(clock, (call) =>
        call >= 4 && aDown ? { ms: 2, fails: true } : { ms: 30, fails: false },
      );
      const b = await serve(clock, () => ({ ms: 60, fails: false }));
      const provider = (origin: string) => ({
        kind: 'openai-compatible' as const,
        baseUrl: `${origin}/v1`,
        chat: { models: { fast: 'm' } },
      });
      router = createRouter(
        {
          providers: { a: provider(a.origin), b: provider(b.origin) },
          routes: {
            chat: { providers: ['a', 'b'], firstChunkTimeoutMs: false, probeAfterMs: 1_000, ...setting },
          },
        },
        { clock },
      );
      const r = router;
      /** One call: its attempts as provider:outcome. */
      const call = async () => {
        const s = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'A table for two.' }] });
        const { error } = await drain(s);
        expect(error).toBeUndefined();
        return (await s.result).attempts.map((x) => `${x.provider}:${x.outcome}`).join(' ');
      };
      const calls: string[] = [];
      // Cold first calls, then each re-tried warm; then a, the faster, goes first.
      for (let i = 0; i < 5; i++) calls.push(await call());
      expect(calls).toEqual(['a:success', 'b:success', 'a:success', 'b:success', 'a:success']);
      calls.length = 0;
      for (let i = 0; i < 4; i++) calls.push(await call());
      expect(calls).toEqual(failing);
      const aFailures = failing.filter((c) => c.startsWith('a:failed')).length;
      // stats() says so: down after two failures in a row (its failure share before them was 0).
      const down = () =>
        r
          .stats()
          .providers.filter((p) => p.capability === 'chat')
          .map((p) => `${p.provider}:${p.down}`);
      expect(down()).toEqual(aFailures >= 2 ? ['a:true', 'b:false'] : ['a:false', 'b:false']);
      expect([a.requests.length, b.requests.length]).toEqual([3 + aFailures, 6]);
      // a recovers. Once it has not been tried for probeAfterMs (b has) it is probed, answers,
      // and is first again.
      aDown = false;
      clock.advance(600);
      expect(await call()).toBe('b:success');
      clock.advance(600);
      calls.length = 0;
      for (let i = 0; i < 3; i++) calls.push(await call());
      expect(calls).toEqual(['a:success', 'a:success', 'a:success']);
      expect([a.requests.length, b.requests.length]).toEqual([6 + aFailures, 7]);
      expect(down()).toEqual(['a:false', 'b:false']);
    },
  );
});
