import { describe, expect, it } from 'vitest';
import { firstChunkDeadlineMs } from '../../src/routing/deadlines.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { orderCandidates, score } from '../../src/routing/select.js';

describe('orderCandidates', () => {
  it('priority keeps the listed order whatever the measurements', () => {
    const order = orderCandidates(
      [
        { index: 0, scoreMs: 900, lastTriedAt: 0 },
        { index: 1, scoreMs: 10, lastTriedAt: 0 },
      ],
      { strategy: 'priority', now: 1 },
    );
    expect(order).toEqual([0, 1]);
  });

  const three = [
    { index: 0, scoreMs: 300, lastTriedAt: 1000 },
    { index: 1, scoreMs: 80, lastTriedAt: 1000 },
    { index: 2, scoreMs: 120, lastTriedAt: 1000 },
  ];
  const draws = (...values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length]!;
  };

  it('latency puts the lowest score first whatever the random draws when it alone is near-best', () => {
    // 120 > 1.25 x 80: only 80 is near-best, so no draw can send the call to a slower provider.
    for (const random of [draws(0, 0.99), draws(0.99, 0.6), draws(0.5, 0.5)]) {
      expect(orderCandidates(three, { strategy: 'latency', now: 2000, random })).toEqual([1, 2, 0]);
    }
  });

  it('latency: power of two choices among three or more near-best candidates (within 1.25x of the lowest)', () => {
    const near = [
      { index: 0, scoreMs: 100, lastTriedAt: 1000 },
      { index: 1, scoreMs: 110, lastTriedAt: 1000 },
      { index: 2, scoreMs: 120, lastTriedAt: 1000 },
      { index: 3, scoreMs: 126, lastTriedAt: 1000 },
    ];
    // Near-best (<= 125): [100, 110, 120]. Draws 0.99 -> 120 (index 2 of 3), 0.6 -> index 1 of the
    // other two [100, 110] -> 110: the pair (120, 110) puts 110 first; the rest follow by score.
    expect(orderCandidates(near, { strategy: 'latency', now: 2000, random: draws(0.99, 0.6) })).toEqual([
      1, 0, 2, 3,
    ]);
    // Draws 0 -> 100, then 0 -> 110: 100 first.
    expect(orderCandidates(near, { strategy: 'latency', now: 2000, random: draws(0, 0) })).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it('latency ignores load by default; inFlightWeight 1 scores by score x (in-flight + 1)', () => {
    const cands = [
      { index: 0, scoreMs: 100, lastTriedAt: 1000, inFlight: 3 },
      { index: 1, scoreMs: 250, lastTriedAt: 1000, inFlight: 0 },
    ];
    expect(orderCandidates(cands, { strategy: 'latency', now: 2000 })).toEqual([0, 1]);
    expect(orderCandidates(cands, { strategy: 'latency', now: 2000, inFlightWeight: 1 })).toEqual([1, 0]);
    expect(score({ index: 0, scoreMs: 100, lastTriedAt: 0, inFlight: 3 })).toBe(100);
    expect(score({ index: 0, scoreMs: 100, lastTriedAt: 0, inFlight: 3 }, 1)).toBe(400);
    expect(score({ index: 0, scoreMs: 100, lastTriedAt: 0, inFlight: 3 }, 0.5)).toBe(250);
  });

  it('latency probes an untried provider only while no attempt on it is running (no burst)', () => {
    const fresh = { index: 1, scoreMs: undefined, lastTriedAt: undefined };
    const measured = { index: 0, scoreMs: 100, lastTriedAt: 1000 };
    expect(orderCandidates([measured, fresh], { strategy: 'latency', now: 2000 })).toEqual([1, 0]);
    expect(
      orderCandidates([measured, { ...fresh, inFlight: 1 }], { strategy: 'latency', now: 2000 }),
    ).toEqual([0, 1]);
  });

  it('puts candidates whose breaker refuses calls last, in listed order, for every strategy', () => {
    const cands = [
      { index: 0, scoreMs: 50, lastTriedAt: 1000, healthy: false },
      { index: 1, scoreMs: 300, lastTriedAt: 1000 },
      { index: 2, scoreMs: 90, lastTriedAt: 1000, healthy: false },
    ];
    expect(orderCandidates(cands, { strategy: 'latency', now: 2000 })).toEqual([1, 0, 2]);
    expect(orderCandidates(cands, { strategy: 'priority', now: 2000 })).toEqual([1, 0, 2]);
  });

  it('weighted draws in proportion to weights', () => {
    const cands = [
      { index: 0, scoreMs: 50, lastTriedAt: 0, weight: 1 },
      { index: 1, scoreMs: 50, lastTriedAt: 0, weight: 3 },
    ];
    // total 4: a draw of 0.2 * 4 = 0.8 < 1 picks index 0; 0.3 * 4 = 1.2 picks index 1.
    expect(orderCandidates(cands, { strategy: 'weighted', now: 0, random: draws(0.2, 0) })).toEqual([0, 1]);
    expect(orderCandidates(cands, { strategy: 'weighted', now: 0, random: draws(0.3, 0) })).toEqual([1, 0]);
  });

  it('cost picks the cheapest provider within 1.5x of the best score', () => {
    const cands = [
      { index: 0, scoreMs: 100, lastTriedAt: 0, cost: 5 },
      { index: 1, scoreMs: 140, lastTriedAt: 0, cost: 1 },
      { index: 2, scoreMs: 400, lastTriedAt: 0, cost: 0 },
    ];
    expect(orderCandidates(cands, { strategy: 'cost', now: 0 })).toEqual([1, 0, 2]);
    expect(orderCandidates(cands, { strategy: 'cost', now: 0, costLatencyFactor: 5 })).toEqual([2, 0, 1]);
  });

  it('latency probes one never-tried candidate first, then the measured ones by score', () => {
    const order = orderCandidates(
      [
        { index: 0, scoreMs: 300, lastTriedAt: 1000 },
        { index: 1, scoreMs: undefined, lastTriedAt: undefined },
        { index: 2, scoreMs: undefined, lastTriedAt: undefined },
        { index: 3, scoreMs: 50, lastTriedAt: 1000 },
      ],
      { strategy: 'latency', now: 2000 },
    );
    expect(order).toEqual([1, 3, 0, 2]);
  });

  it('latency probes a candidate not tried for longer than probeAfterMs again', () => {
    const order = orderCandidates(
      [
        { index: 0, scoreMs: 50, lastTriedAt: 40_000 },
        { index: 1, scoreMs: 400, lastTriedAt: 1_000 },
      ],
      { strategy: 'latency', now: 41_000, probeAfterMs: 30_000 },
    );
    expect(order).toEqual([1, 0]);
  });
});

describe('LatencyTracker', () => {
  it('EWMA: a faster sample lowers the score gradually, the old value weighing exp(-elapsed/decay)', () => {
    const t = new LatencyTracker({ decayMs: 1000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 200, 0);
    expect(t.score(k)).toBe(200);
    t.recordSuccess(k, 100, 1000);
    const w = Math.exp(-1);
    expect(t.ewma(k)).toBeCloseTo(200 * w + 100 * (1 - w), 10);
    expect(t.score(k)).toBeCloseTo(200 * w + 100 * (1 - w), 10);
  });

  it('confirmed peak: two slow samples in a row raise the score at once to the smaller of them', () => {
    const t = new LatencyTracker({ decayMs: 1000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 100, 0);
    t.recordSuccess(k, 900, 10);
    t.recordSuccess(k, 700, 20);
    expect(t.score(k)).toBe(700);
    t.recordSuccess(k, 800, 30);
    expect(t.score(k)).toBe(700);
    t.recordSuccess(k, 900, 40);
    expect(t.score(k)).toBe(800);
    expect(t.snapshot(k).scoreMs).toBe(800);
  });

  it('one slow sample alone (a heavy-tail outlier) does not become the score, and the next fast one ends it', () => {
    const t = new LatencyTracker({ decayMs: 10_000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 50, 0);
    t.recordSuccess(k, 50, 40);
    t.recordSuccess(k, 2000, 80);
    // Unconfirmed, the outlier enters the EWMA capped at max(previous sample, EWMA) = 50.
    expect(t.score(k)).toBe(50);
    t.recordSuccess(k, 50, 120);
    expect(t.score(k)).toBe(50);
    // A second slow sample in a row confirms it: both the peak and the EWMA take it.
    t.recordSuccess(k, 1000, 160);
    t.recordSuccess(k, 1200, 200);
    expect(t.score(k)).toBe(1000);
  });

  it('one slow sample does not become the score at a low call rate either (one call every 5 s)', () => {
    const t = new LatencyTracker({ decayMs: 10_000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 50, 0);
    t.recordSuccess(k, 50, 5_000);
    t.recordSuccess(k, 1000, 10_000);
    expect(t.score(k)).toBe(50);
  });

  it('a cancellation on a provider with no score is not recorded: a lower bound never starts the EWMA', () => {
    const t = new LatencyTracker({ decayMs: 10_000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordCancelled(k, 5, 0);
    expect(t.score(k)).toBeUndefined();
    t.recordSuccess(k, 300, 1000);
    expect(t.score(k)).toBe(300);
  });

  it('a cold start breaks the pair: a sample before the idle cannot confirm a peak after it', () => {
    const t = new LatencyTracker({ decayMs: 10_000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 50, 0);
    t.recordSuccess(k, 2000, 100);
    t.recordSuccess(k, 50, 400_000, { coldStart: true });
    t.recordSuccess(k, 1500, 400_100);
    expect(t.score(k)).toBe(t.ewma(k));
    expect(t.score(k)!).toBeLessThan(60);
  });

  it('a cold start (first call after a long idle) is averaged in, not taken as a peak', () => {
    const t = new LatencyTracker({ decayMs: 1000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 100, 0);
    t.recordSuccess(k, 2100, 900);
    t.recordSuccess(k, 2100, 1000, { coldStart: true });
    // The first 2100 is unconfirmed: it enters the EWMA capped at 100. The cold start enters in
    // full, at its weight, and is not the second slow sample of a peak.
    const w2 = Math.exp(-0.1);
    const ewma = 100 * w2 + 2100 * (1 - w2);
    expect(t.score(k)).toBeCloseTo(ewma, 10);
  });

  it('a cancelled attempt counts only when its elapsed time already exceeds the score', () => {
    const t = new LatencyTracker({ decayMs: 1000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 300, 0);
    t.recordCancelled(k, 50, 10);
    expect(t.score(k)).toBe(300);
    t.recordCancelled(k, 800, 20);
    t.recordCancelled(k, 900, 30);
    // Two lower bounds above the score in a row: a confirmed peak at the smaller.
    expect(t.score(k)).toBe(800);
    expect(t.snapshot(k).samples).toBe(1);
  });

  it('never lowers the latency score on a failure, and counts the error rate', () => {
    const t = new LatencyTracker();
    const k = LatencyTracker.key('a', 'chat', 'm');
    t.recordSuccess(k, 250, 0);
    t.recordFailure(k, 10);
    t.recordFailure(k, 20);
    t.recordSuccess(k, 250, 30);
    const s = t.snapshot(k);
    expect(s.ewmaMs).toBe(250);
    expect(s.scoreMs).toBe(250);
    expect(s.errors).toBe(2);
    expect(s.samples).toBe(2);
    expect(s.errorRate).toBe(0.5);
    expect(s.lastUpdateMs).toBe(30);
  });

  it('reports quantiles of the recent window', () => {
    const t = new LatencyTracker({ window: 100 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    for (let i = 1; i <= 100; i++) t.recordSuccess(k, i, i);
    const s = t.snapshot(k);
    expect([s.p50Ms, s.p95Ms, s.p99Ms]).toEqual([51, 96, 100]);
  });
});

describe('firstChunkDeadlineMs', () => {
  const snap = (samples: number, p99Ms: number | undefined) => ({
    scoreMs: undefined,
    ewmaMs: undefined,
    p50Ms: undefined,
    p95Ms: undefined,
    p99Ms,
    samples,
    errors: 0,
    errorRate: 0,
    inFlight: 0,
    lastUpdateMs: undefined,
    down: false,
  });
  it('uses a fixed number as is and false as none', () => {
    expect(firstChunkDeadlineMs(1500, snap(0, undefined))).toBe(1500);
    expect(firstChunkDeadlineMs(false, snap(0, undefined))).toBe(0);
  });
  it("'auto' is the ceiling until 5 samples, then 3 x p99 clamped to [1000, 10000] ms", () => {
    expect(firstChunkDeadlineMs('auto', snap(4, 100))).toBe(10_000);
    expect(firstChunkDeadlineMs('auto', snap(5, 100))).toBe(1_000);
    expect(firstChunkDeadlineMs('auto', snap(5, 700))).toBe(2_100);
    expect(firstChunkDeadlineMs('auto', snap(5, 9000))).toBe(10_000);
  });
});
