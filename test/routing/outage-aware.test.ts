import { describe, expect, it } from 'vitest';
import { budgetDrain } from '../../src/routing/balance-price.js';
import {
  backupCostMs,
  drainedTailPenalty,
  failShareOf,
  hedgeValueMs,
  objectiveMs,
  planCandidates,
} from '../../src/routing/hedge-delay.js';
import {
  AFTER_FAIL_PRIOR_WEIGHT,
  PRIOR_WEIGHT,
  SHIFT_DECAY_MS,
  TAIL_SAMPLES,
  TailModel,
} from '../../src/routing/tail.js';

/** Deterministic jitter in [0.9, 1.1]. */
const jitter = (i: number) => 1 + 0.1 * Math.sin(i * 12.9898);

/** A model fed `n` samples one every 40 ms from `t0`: `tailEvery`-th ones at 600 ms, the rest near `medianMs`. */
function fed(n: number, medianMs: number, tailEvery = 0, t0 = 0, m = new TailModel()): TailModel {
  for (let i = 1; i <= n; i++)
    m.record(tailEvery && i % tailEvery === 0 ? 600 * jitter(i) : medianMs * jitter(i), t0 + i * 40);
  return m;
}

const quantiles = { samples: 400, p95Ms: undefined, p99Ms: undefined };

describe('failure right after a failure (outage bursts)', () => {
  it('after one failure the chance of another is the long-run share; after a failure that followed one, the learned after-failure share; fading back in SHIFT_DECAY_MS', () => {
    const k = 1 - 1 / TAIL_SAMPLES;
    const m = new TailModel();
    m.record(100, 0);
    expect(m.at(0)!.recentFailShare).toBeUndefined();
    m.recordFailure(10, 0);
    const share1 = 1 / (k + 1 + PRIOR_WEIGHT);
    expect(m.at(0)!.failShare).toBeCloseTo(share1, 12);
    // No failure was ever followed by another yet: the prior, the long-run share.
    expect(m.at(0)!.recentFailShare).toBeCloseTo(share1, 12);
    expect(m.at(0)!.down).toBeUndefined();
    // A second failure in a row of a provider that had never failed: down (consecutive-failures).
    m.recordFailure(10, 0);
    expect(m.at(0)!.recentFailShare).toBe(1);
    // An answer ends the run.
    m.record(100, 0);
    expect(m.at(0)!.recentFailShare).toBeUndefined();
    // One failure after a burst: counters (decayed by k per outcome) N = k^4 + k, failures
    // F = k^3 + k^2 + 1, outcomes after a failure k^2 + k, failures among them k^2.
    m.recordFailure(10, 0);
    const share = (k ** 3 + k ** 2 + 1) / (k ** 4 + k + k ** 3 + k ** 2 + 1 + PRIOR_WEIGHT);
    const after = (k ** 2 + AFTER_FAIL_PRIOR_WEIGHT * share) / (k ** 2 + k + AFTER_FAIL_PRIOR_WEIGHT);
    expect(m.at(0)!.failShare).toBeCloseTo(share, 12);
    expect(m.at(0)!.recentFailShare).toBeCloseTo(after, 12);
    // One SHIFT_DECAY_MS later without an outcome: e^-1 of the way back to the long-run share.
    const w = Math.exp(-1);
    expect(m.at(SHIFT_DECAY_MS)!.recentFailShare).toBeCloseTo(w * after + (1 - w) * share, 12);
    // A success ends the burst: the plan goes back to the long-run share.
    m.record(100, SHIFT_DECAY_MS);
    expect(m.at(SHIFT_DECAY_MS)!.recentFailShare).toBeUndefined();
    expect(failShareOf(m.at(SHIFT_DECAY_MS)!)).toBe(m.at(SHIFT_DECAY_MS)!.failShare);
  });

  it('a provider whose failures came in bursts costs more in the objective right after a failure than after a success, by its after-failure share', () => {
    const b = fed(100, 120);
    // Two outages of four failures in a row, each followed by successes.
    let t = 100 * 40;
    for (const _ of [1, 2]) {
      for (let i = 0; i < 4; i++) {
        t += 40;
        b.recordFailure(10, t);
      }
      fed(20, 120, 0, t, b);
      t += 20 * 40;
    }
    const steady = fed(100, 125).summary()!;
    const calm = b.at(t)!;
    t += 40;
    b.recordFailure(10, t);
    const failing = b.at(t)!;
    expect(failing.recentFailShare!).toBeGreaterThan(0.5);
    expect(calm.recentFailShare).toBeUndefined();
    // J prices the failure share right after the failure, not the long-run one.
    const r = failing.recentFailShare!;
    expect(objectiveMs(failing, steady, undefined)).toBe(
      objectiveMs({ ...failing, failShare: r, recentFailShare: undefined }, steady, undefined),
    );
    expect(objectiveMs(failing, steady, undefined)).toBeGreaterThan(objectiveMs(calm, steady, undefined));
    // With a token price, each expected fallback costs it: r x price more.
    expect(
      objectiveMs(failing, steady, undefined, 100) - objectiveMs(failing, steady, undefined),
    ).toBeCloseTo(100 * r, 9);
  });
});

describe('backup choice and the token price', () => {
  const steady = fed(400, 120).summary()!;

  it('a backup costs its expected TTFC plus failMs for the hedges it fails now', () => {
    const y = { ...steady, failMs: 10, recentFailShare: 0.5 };
    expect(backupCostMs(y)).toBeCloseTo(steady.meanMs + 5, 12);
    expect(backupCostMs({ ...steady, failShare: 0, failMs: 10 })).toBeCloseTo(steady.meanMs, 12);
  });

  it('the backup is the cheapest healthy measured other candidate, never an unhealthy one', () => {
    const c = fed(400, 50, 10).summary()!;
    const slow = fed(400, 200).summary()!;
    const inputs = [
      { model: c, quantiles, healthy: true },
      { model: slow, quantiles, healthy: true },
      { model: steady, quantiles, healthy: true },
    ];
    // c stalls on one call in ten: E[X] about 105 ms, below steady's 120 ms.
    expect(planCandidates(inputs, { after: 'auto', maxShare: 0.1 }).map((p) => p.backupIndex)).toEqual([
      2, 0, 0,
    ]);
    inputs[2] = { ...inputs[2]!, healthy: false };
    expect(planCandidates(inputs, { after: 'auto', maxShare: 0.1 }).map((p) => p.backupIndex)).toEqual([
      1, 0, 0,
    ]);
  });

  it('the tail penalty grows with the drain: x1 full, x2 half, x3 empty', () => {
    expect([drainedTailPenalty(0), drainedTailPenalty(0.5), drainedTailPenalty(1)]).toEqual([1, 2, 3]);
    const c = fed(400, 50, 5).summary()!;
    const [halfC] = planCandidates(
      [
        { model: c, quantiles, healthy: true },
        { model: steady, quantiles, healthy: true },
      ],
      { after: 'auto', maxShare: 0.1 },
      0,
      0,
      0.5,
    );
    expect(halfC!.objectiveMs).toBeCloseTo(
      objectiveMs(c, steady, undefined, 0.5 * hedgeValueMs(c, steady), 2),
      9,
    );
  });

  it('budgetDrain: 0 when full, 1 when empty or paying fallbacks back; 10 tokens make it full by default', () => {
    expect([
      budgetDrain(5, 5),
      budgetDrain(2.5, 5),
      budgetDrain(0, 5),
      budgetDrain(-3, 5),
      budgetDrain(6, 5),
    ]).toEqual([0, 0.5, 1, 1, 0]);
    expect([budgetDrain(10), budgetDrain(7.5), budgetDrain(0), budgetDrain(-2), budgetDrain(100)]).toEqual([
      0, 0.25, 1, 1, 0,
    ]);
  });

  it('a hedge of a tail call saves the tail excess minus the backup, and nothing before a tail is seen', () => {
    const c = fed(400, 50, 10).summary()!;
    expect(hedgeValueMs(c, steady)).toBeCloseTo(c.tailExcessMs - steady.meanMs, 12);
    expect(hedgeValueMs(fed(5, 50).summary()!, steady)).toBe(0);
  });

  it('the token price adds price x (f + (1 - f) x P(X > d)) to the objective', () => {
    const c = fed(400, 50, 10).summary()!;
    const d = c.kneeMs;
    const hedged = c.points.filter((p) => p.ms > d).reduce((n, p) => n + p.p, 0);
    expect(objectiveMs(c, steady, d, 100) - objectiveMs(c, steady, d)).toBeCloseTo(100 * hedged, 9);
    const f = { ...c, failShare: 0.2, failMs: 10 };
    expect(objectiveMs(f, steady, d, 100) - objectiveMs(f, steady, d)).toBeCloseTo(
      100 * (0.2 + 0.8 * hedged),
      9,
    );
    expect(objectiveMs(c, steady, undefined, 100) - objectiveMs(c, steady, undefined)).toBe(0);
  });

  it('a drained budget prices the first choice that needs hedges above a steadier one; a full one does not', () => {
    const c = fed(400, 50, 10).summary()!;
    const inputs = [
      { model: c, quantiles, healthy: true },
      { model: steady, quantiles, healthy: true },
    ];
    const hedge = { after: 'auto', maxShare: 0.1 } as const;
    const [fullC, fullB] = planCandidates(inputs, hedge, 0.5, 1, 0);
    expect(fullC!.objectiveMs!).toBeLessThan(fullB!.objectiveMs!);
    const price = hedgeValueMs(c, steady);
    const [emptyC] = planCandidates(inputs, hedge, 0.5, 1, 1);
    expect(emptyC!.objectiveMs).toBeCloseTo(objectiveMs(c, steady, fullC!.hedgeAfterMs, price, 3), 9);
    expect(emptyC!.objectiveMs! - fullC!.objectiveMs!).toBeGreaterThan(0);
  });
  it('an empty bucket (no hedge planned) still prices a fallback: a provider in an outage does not win on its fast failures', () => {
    const c = fed(400, 50, 10).summary()!;
    // b is in an outage: the next call fails with share 0.6, after 10 ms.
    const b = { ...steady, failShare: 0.01, recentFailShare: 0.6, failMs: 10 };
    const inputs = [
      { model: c, quantiles, healthy: true },
      { model: b, quantiles, healthy: true },
    ];
    // The planner passes no hedge setting once the bucket holds less than a token (drain 1).
    const [emptyC, emptyB] = planCandidates(inputs, undefined, 0, 0, 1);
    const price = hedgeValueMs(c, b);
    expect(price).toBeGreaterThan(300);
    expect(emptyB!.objectiveMs).toBeCloseTo(objectiveMs(b, c, undefined, price, 3), 9);
    expect(emptyB!.objectiveMs! - objectiveMs(b, c, undefined, 0, 3)).toBeCloseTo(0.6 * price, 9);
    // Unpriced, b's fallback to c looked cheaper than c itself; priced, c goes first.
    expect(objectiveMs(b, c, undefined, 0, 3)).toBeLessThan(emptyC!.objectiveMs!);
    expect(emptyC!.objectiveMs!).toBeLessThan(emptyB!.objectiveMs!);
  });
});
