import { describe, expect, it } from 'vitest';
import {
  autoHedgeDelayMs,
  createHedgeBudget,
  objectiveMs,
  planCandidates,
} from '../../src/routing/hedge-delay.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { TailModel } from '../../src/routing/tail.js';

/** Deterministic jitter in [0.9, 1.1]. */
const jitter = (i: number) => 1 + 0.1 * Math.sin(i * 12.9898);

/** A model fed `n` samples one every 40 ms: `tailEvery`-th ones at `tailMs`, the rest near `medianMs`. */
function model(n: number, medianMs: number, tailEvery = 0, tailMs = 600): TailModel {
  const m = new TailModel();
  for (let i = 1; i <= n; i++)
    m.record(tailEvery && i % tailEvery === 0 ? tailMs * jitter(i) : medianMs * jitter(i), i * 40);
  return m;
}

describe('tail model', () => {
  it('learns the knee, the tail share and the tail magnitude of a provider that stalls on one call in five', () => {
    const s = model(400, 50, 5).summary()!;
    expect(s.kneeMs).toBeGreaterThan(55);
    expect(s.kneeMs).toBeLessThan(75);
    expect(s.tailShare).toBeGreaterThan(0.17);
    expect(s.tailShare).toBeLessThan(0.23);
    expect(s.tailExcessMs).toBeGreaterThan(480);
    expect(s.tailExcessMs).toBeLessThan(600);
    expect(s.p50Ms).toBeGreaterThan(45);
    expect(s.p50Ms).toBeLessThan(55);
  });

  it('learns from the first few samples: one stall among the first four calls gives a hedge delay at the knee', () => {
    const m = new TailModel();
    for (const [i, ms] of [50, 52, 600, 49].entries()) m.record(ms, (i + 1) * 40);
    const backup = model(3, 120).summary();
    const d = autoHedgeDelayMs(m.summary()!, backup, 0.5);
    expect(d).toBeGreaterThan(45);
    expect(d).toBeLessThan(70);
    // Three calls and no stall yet: nothing says a hedge would pay for itself.
    expect(autoHedgeDelayMs(model(3, 50).summary()!, backup, 0.5)).toBeUndefined();
  });

  it('a tail share decays back toward the prior when the provider has been quiet for minutes', () => {
    const m = model(200, 50, 5);
    const before = m.summary()!.tailShare;
    m.record(50, 200 * 40 + 600_000);
    const after = m.summary()!.tailShare;
    expect(before).toBeGreaterThan(0.15);
    expect(after).toBeLessThan(0.05);
  });
});

describe('objective and auto hedge delay', () => {
  const steady = model(400, 120).summary()!;

  it('hedges at the knee when the tail is rarer than maxShare, and prices the hedged tail into the objective', () => {
    const c = model(400, 50, 12).summary()!; // about 8% of calls stall
    const d = autoHedgeDelayMs(c, steady, 0.1)!;
    expect(d).toBeGreaterThan(50);
    expect(d).toBeLessThanOrEqual(c.kneeMs);
    expect(objectiveMs(c, steady, d)).toBeLessThan(objectiveMs(steady, c, undefined));
  });

  it('does not hedge a tail more frequent than maxShare at the knee; unhedged, the steadier provider wins', () => {
    const c = model(400, 50, 5).summary()!; // 20% of calls stall
    const d = autoHedgeDelayMs(c, steady, 0.1);
    expect(d === undefined || d > 400).toBe(true);
    const [pc, pb] = planCandidates(
      [
        { model: c, quantiles: { samples: 400, p95Ms: undefined, p99Ms: undefined }, healthy: true },
        { model: steady, quantiles: { samples: 400, p95Ms: undefined, p99Ms: undefined }, healthy: true },
      ],
      { after: 'auto', maxShare: 0.1 },
    );
    expect(pb!.objectiveMs!).toBeLessThan(pc!.objectiveMs!);
  });

  it('the hedge budget starts full: 5 hedges at maxShare 0.1, then one per 10 calls', () => {
    const budget = createHedgeBudget(0.1);
    const taken = Array.from({ length: 6 }, () => budget.take());
    expect(taken).toEqual([true, true, true, true, true, false]);
    for (let i = 0; i < 10; i++) budget.earn(0.1);
    expect([budget.available(), budget.take(), budget.take()]).toEqual([true, true, false]);
  });
});

describe('LatencyTracker snapshot', () => {
  it('reports p50/p90/p99, the knee, the tail share and the noted hedge delay', () => {
    const t = new LatencyTracker();
    const key = LatencyTracker.key('c', 'tts', 'm');
    for (let i = 1; i <= 100; i++) t.recordSuccess(key, i % 5 === 0 ? 600 : 50, i * 40);
    t.noteHedgeDelay(key, 62);
    const s = t.snapshot(key);
    expect([s.p50Ms, s.p90Ms, s.p99Ms, s.hedgeAfterMs]).toEqual([50, 600, 600, 62]);
    expect(s.kneeMs).toBeGreaterThan(50);
    expect(s.kneeMs).toBeLessThan(70);
    expect(s.tailShare).toBeGreaterThan(0.15);
    expect(s.tailShare).toBeLessThan(0.25);
  });
});
