import { describe, expect, it } from 'vitest';
import { firstChunkDeadlineMs } from '../../src/routing/deadlines.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { orderCandidates } from '../../src/routing/select.js';

describe('orderCandidates', () => {
  it('priority keeps the listed order whatever the measurements', () => {
    const order = orderCandidates(
      [
        { index: 0, ewmaMs: 900, lastTriedAt: 0 },
        { index: 1, ewmaMs: 10, lastTriedAt: 0 },
      ],
      { strategy: 'priority', now: 1 },
    );
    expect(order).toEqual([0, 1]);
  });

  it('latency puts the lowest EWMA first once every candidate was tried recently', () => {
    const order = orderCandidates(
      [
        { index: 0, ewmaMs: 300, lastTriedAt: 1000 },
        { index: 1, ewmaMs: 80, lastTriedAt: 1000 },
        { index: 2, ewmaMs: 120, lastTriedAt: 1000 },
      ],
      { strategy: 'latency', now: 2000 },
    );
    expect(order).toEqual([1, 2, 0]);
  });

  it('latency probes one never-tried candidate first, then the measured ones by EWMA', () => {
    const order = orderCandidates(
      [
        { index: 0, ewmaMs: 300, lastTriedAt: 1000 },
        { index: 1, ewmaMs: undefined, lastTriedAt: undefined },
        { index: 2, ewmaMs: undefined, lastTriedAt: undefined },
        { index: 3, ewmaMs: 50, lastTriedAt: 1000 },
      ],
      { strategy: 'latency', now: 2000 },
    );
    expect(order).toEqual([1, 3, 0, 2]);
  });

  it('latency probes a candidate not tried for longer than probeAfterMs again', () => {
    const order = orderCandidates(
      [
        { index: 0, ewmaMs: 50, lastTriedAt: 40_000 },
        { index: 1, ewmaMs: 400, lastTriedAt: 1_000 },
      ],
      { strategy: 'latency', now: 41_000, probeAfterMs: 30_000 },
    );
    expect(order).toEqual([1, 0]);
  });
});

describe('LatencyTracker', () => {
  it('keeps a time-decayed EWMA: the old value weighs exp(-elapsed/decay)', () => {
    const t = new LatencyTracker({ decayMs: 1000 });
    const k = LatencyTracker.key('a', 'tts', 'v');
    t.recordSuccess(k, 100, 0);
    expect(t.ewma(k)).toBe(100);
    t.recordSuccess(k, 200, 1000);
    const w = Math.exp(-1);
    expect(t.ewma(k)).toBeCloseTo(100 * w + 200 * (1 - w), 10);
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
    ewmaMs: undefined,
    p50Ms: undefined,
    p95Ms: undefined,
    p99Ms,
    samples,
    errors: 0,
    errorRate: 0,
    inFlight: 0,
    lastUpdateMs: undefined,
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
