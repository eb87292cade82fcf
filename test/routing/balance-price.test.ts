import { describe, expect, it } from 'vitest';
import {
  AFFORDABLE_SHARE_FACTOR,
  BALANCE_SCALE_TOKENS,
  BALANCE_TARGET_TOKENS,
  balancePriceMs,
  balanceScale,
  type PricedLine,
} from '../../src/routing/balance-price.js';
import {
  extraShareOf,
  failShareOf,
  hedgeValueMs,
  objectiveMs,
  planCandidates,
} from '../../src/routing/hedge-delay.js';
import { TailModel } from '../../src/routing/tail.js';

const line = (objectiveMs: number | undefined, extraShare: number, healthy = true): PricedLine => ({
  objectiveMs,
  extraShare,
  healthy,
});

/** The definition, by brute force: the least breakpoint p >= 0 at which the cheapest line is affordable. */
function byScan(lines: PricedLine[], affordable: number): number {
  const live = lines.filter((l) => l.healthy && l.objectiveMs !== undefined) as Array<{
    objectiveMs: number;
    extraShare: number;
  }>;
  if (live.length === 0) return 0;
  const cheapest = (p: number) =>
    live.reduce((best, c) => {
      const v = c.objectiveMs + p * c.extraShare;
      const w = best.objectiveMs + p * best.extraShare;
      return v < w - 1e-9 || (Math.abs(v - w) <= 1e-9 && c.extraShare < best.extraShare) ? c : best;
    });
  if (cheapest(0).extraShare <= affordable + 1e-9) return 0;
  const points: number[] = [];
  for (const a of live)
    for (const b of live)
      if (a.extraShare > b.extraShare) {
        const p = (b.objectiveMs - a.objectiveMs) / (a.extraShare - b.extraShare);
        if (p > 0) points.push(p);
      }
  points.sort((x, y) => x - y);
  for (const p of points) if (cheapest(p).extraShare <= affordable + 1e-9) return p;
  return points.length ? points[points.length - 1]! : 0;
}

describe('balance price', () => {
  it('is the least price at which the cheapest candidate expects at most the affordable share', () => {
    // A: fast, 37.5% extra requests; B: 12.5%; C: none. A loses to B at 30 / 0.25 = 120 ms.
    const lines = [line(100, 0.375), line(130, 0.125), line(160, 0)];
    expect(balancePriceMs(lines, 0.15)).toBe(120);
    // D is cheaper still and less affordable: beaten by B at 70 / 0.5 = 140 ms (C: 100 / 0.625 = 160).
    expect(balancePriceMs([...lines, line(60, 0.625)], 0.15)).toBe(140);
    // At a looser share B is out too: A and B both lose to C, at 160 and 240 ms.
    expect(balancePriceMs(lines, 0.1)).toBe(240);
  });

  it('is 0 when the cheapest is affordable, and ignores unhealthy and unmeasured candidates', () => {
    expect(balancePriceMs([line(100, 0.125), line(120, 0.5)], 0.15)).toBe(0);
    expect(balancePriceMs([line(100, 0.125), line(80, 0.5, false)], 0.15)).toBe(0);
    expect(balancePriceMs([line(100, 0.375), line(130, 0.125, false), line(160, 0)], 0.15)).toBe(160);
    expect(balancePriceMs([line(undefined, 0.9), line(130, 0.125)], 0.15)).toBe(0);
    expect(balancePriceMs([], 0.15)).toBe(0);
  });

  it('with no affordable candidate, the last crossing of two lines (0 when none crosses above 0)', () => {
    expect(balancePriceMs([line(100, 0.5), line(130, 0.25)], 0.15)).toBe(120);
    expect(balancePriceMs([line(100, 0.25), line(130, 0.5)], 0.15)).toBe(0);
  });

  it('equals the brute-force scan of its definition on 500 random route states', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 500; k++) {
      const lines = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () =>
        line(rnd() < 0.1 ? undefined : 40 + rnd() * 300, rnd() < 0.3 ? 0 : rnd() * 0.4, rnd() > 0.1),
      );
      expect(balancePriceMs(lines, 0.15)).toBeCloseTo(byScan(lines, 0.15), 6);
    }
  });

  it('scales by 2^((5 - B) / 5) from the ledger balance B', () => {
    expect([BALANCE_TARGET_TOKENS, BALANCE_SCALE_TOKENS, AFFORDABLE_SHARE_FACTOR]).toEqual([5, 5, 1.5]);
    expect([balanceScale(5), balanceScale(0), balanceScale(10), balanceScale(-5), balanceScale(2.5)]).toEqual(
      [1, 2, 0.5, 4, Math.SQRT2],
    );
  });
});

/** Deterministic jitter in [0.9, 1.1]. */
const jitter = (i: number) => 1 + 0.1 * Math.sin(i * 12.9898);
function fed(n: number, medianMs: number, tailEvery = 0): TailModel {
  const m = new TailModel();
  for (let i = 1; i <= n; i++)
    m.record(tailEvery && i % tailEvery === 0 ? 600 * jitter(i) : medianMs * jitter(i), i * 40);
  return m;
}

describe('the plan with the balance price', () => {
  const quantiles = { samples: 400, p95Ms: undefined, p99Ms: undefined };
  // c stalls on one call in five (its tail share is twice the budget), steady never does.
  const c = fed(400, 50, 5).summary()!;
  const steady = fed(400, 120).summary()!;
  const inputs = [
    { model: c, quantiles, healthy: true },
    { model: steady, quantiles, healthy: true },
  ];
  const hedge = { after: 'auto', maxShare: 0.1 } as const;
  // shareCap 1: c is counted as hedged at its knee whatever the level; only the price moves.
  const plan = (tokens: number, drain = 0) =>
    planCandidates(inputs, hedge, 1, 1, drain, { tokens, maxShare: 0.1 });
  const unpriced = planCandidates(inputs, hedge, 1, 1, 0);

  it('c hedged at its knee expects about 20% extra requests, steady about none: c is not affordable at 1.5 x 0.1', () => {
    expect(unpriced[0]!.hedgeAfterMs).toBe(c.kneeMs);
    expect(unpriced[0]!.extraShare).toBeCloseTo(extraShareOf(c, steady, c.kneeMs), 12);
    expect(unpriced[0]!.extraShare).toBeGreaterThan(0.17);
    expect(unpriced[0]!.extraShare).toBeLessThan(0.23);
    // steady's extra requests: its own rare hedges to c (no failure seen).
    expect(failShareOf(steady)).toBe(0);
    expect(unpriced[1]!.extraShare).toBeCloseTo(extraShareOf(steady, c, unpriced[1]!.hedgeAfterMs), 12);
    expect(unpriced[1]!.extraShare).toBeLessThan(0.001);
    // Unpriced, c is the cheaper first choice.
    expect(unpriced[0]!.objectiveMs!).toBeLessThan(unpriced[1]!.objectiveMs!);
  });

  it('a full ledger keeps the fast provider first; a drained one sends the call to the steady one; at the target they tie', () => {
    const [fullC, fullB] = plan(100);
    expect(fullC!.objectiveMs!).toBeLessThan(fullB!.objectiveMs!);
    const [lowC, lowB] = plan(0);
    expect(lowB!.objectiveMs!).toBeLessThan(lowC!.objectiveMs!);
    // At the target balance the price is p* itself: the price at which c costs what steady does.
    const [atC, atB] = plan(5);
    expect(atC!.objectiveMs!).toBeCloseTo(atB!.objectiveMs!, 9);
  });

  it('adds p* x 2^((5 - B) / 5) x e to each objective, exactly', () => {
    const [c0, b0] = unpriced;
    // Where c's line crosses steady's.
    const p = (b0!.objectiveMs! - c0!.objectiveMs!) / (c0!.extraShare - b0!.extraShare);
    expect(
      balancePriceMs(
        unpriced.map((x) => ({ ...x, healthy: true })),
        0.15,
      ),
    ).toBeCloseTo(p, 9);
    const [c1, b1] = plan(0);
    expect(c1!.objectiveMs).toBeCloseTo(c0!.objectiveMs! + 2 * p * c0!.extraShare, 9);
    expect(b1!.objectiveMs).toBeCloseTo(b0!.objectiveMs! + 2 * p * b0!.extraShare, 9);
    expect(plan(10)[0]!.objectiveMs).toBeCloseTo(c0!.objectiveMs! + 0.5 * p * c0!.extraShare, 9);
    // Unhealthy steady: nothing affordable is left, the price is 0.
    const alone = planCandidates([inputs[0]!, { ...inputs[1]!, healthy: false }], hedge, 1, 1, 0, {
      tokens: 0,
      maxShare: 0.1,
    });
    expect(alone[0]!.objectiveMs).toBe(objectiveMs(c, undefined, undefined));
  });

  it('the drain price wins when it is higher', () => {
    // At 0 tokens (drain 1) the drain price is the hedge value V, above 2 x p* here.
    const value = hedgeValueMs(c, steady);
    const [c3, b3] = planCandidates(inputs, hedge, 1, 1, 1);
    const j0c = c3!.objectiveMs! - value * c3!.extraShare;
    const j0b = b3!.objectiveMs! - value * b3!.extraShare;
    const p = (j0b - j0c) / (c3!.extraShare - b3!.extraShare);
    expect(2 * p).toBeLessThan(value);
    expect(plan(0, 1)[0]!.objectiveMs).toBeCloseTo(objectiveMs(c, steady, c.kneeMs, value, 3), 9);
  });
});
