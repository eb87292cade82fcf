import { describe, expect, it } from 'vitest';
import {
  autoHedgeDelayMs,
  budgetShareCap,
  objectiveMs,
  planCandidates,
} from '../../src/routing/hedge-delay.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { PRIOR_TAIL_RATIO, shiftRun, TailModel } from '../../src/routing/tail.js';

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
  });

  it('hedges at the knee from the second warm sample before any stall: an unseen tail is assumed heavy for the hedge, not for the objective', () => {
    const steady = model(2, 50).summary()!;
    const backup = model(3, 120).summary()!;
    expect(steady.tailSeen).toBe(false);
    expect(autoHedgeDelayMs(steady, backup, 0.5)).toBe(steady.kneeMs);
    // The objective reasons with the knee as the tail's magnitude: no prior penalty.
    expect(steady.tailExcessMs).toBe(steady.kneeMs);
    // One sample is not enough for any hedge.
    expect(autoHedgeDelayMs(model(1, 50).summary()!, backup, 0.5)).toBeUndefined();
  });

  it('a hedge that wins does not shrink the learned tail magnitude: a censored loser is shared among the slower tail calls', () => {
    const m = model(200, 50, 10);
    const before = m.summary()!;
    // Twenty stalls cut short by a winning hedge at knee + 120 ms: lower bounds only.
    for (let i = 1; i <= 20; i++) m.recordCensored(before.kneeMs + 120, 200 * 40 + i * 40);
    const after = m.summary()!;
    expect(before.tailExcessMs).toBeGreaterThan(480);
    expect(after.tailExcessMs).toBeGreaterThanOrEqual(before.tailExcessMs - 1e-9);
    expect(after.tailShare).toBeGreaterThan(before.tailShare + 0.05);
  });

  it('a censored loser beyond every tail call seen counts at the prior tail (PRIOR_TAIL_RATIO x the knee), or at its bound when that is more', () => {
    const m = model(50, 50);
    const knee = m.summary()!.kneeMs;
    expect(PRIOR_TAIL_RATIO * knee).toBeGreaterThan(400);
    // A stall cut short at 170 ms by a hedge: only known to exceed 170 ms.
    m.recordCensored(170, 50 * 40 + 40);
    const s = m.summary()!;
    expect(s.tailSeen).toBe(true);
    // The bucket of 8 x the knee (5% wide, geometric centre) minus the knee; at its bound it
    // would be about 170 - knee, and a hedge to a 120 ms backup would no longer pay.
    expect(s.tailExcessMs).toBeGreaterThan((PRIOR_TAIL_RATIO * knee) / 1.05 - knee);
    expect(s.tailExcessMs).toBeLessThan(PRIOR_TAIL_RATIO * knee * 1.05 - knee);
    expect(autoHedgeDelayMs(s, model(50, 120).summary(), 0.5)).toBe(s.kneeMs);
    // Beyond the prior's tail: at its bound.
    const far = model(50, 50);
    far.recordCensored(2_000, 50 * 40 + 40);
    expect(far.summary()!.tailExcessMs).toBeGreaterThan(2_000 - knee - 60);
    expect(far.summary()!.tailExcessMs).toBeLessThan(2_000 * 1.05 - knee);
  });

  it('a run of tail calls is taken for a move only when the tail share makes it unlikely: 2 at 2%, 3 at 10%, 4 at 20%', () => {
    expect([shiftRun(0.02), shiftRun(0.1), shiftRun(0.2), shiftRun(0.5)]).toEqual([2, 3, 4, 4]);
    // One stall in five: two stalls in a row leave the model where it was.
    // (Each call below starts at t or t + 40, after every earlier one: its time minus its TTFC.)
    const stalls = model(400, 50, 5);
    const t = 401 * 40;
    stalls.record(600, t + 600);
    stalls.record(600, t + 640);
    expect(stalls.at(t + 640)!.p50Ms).toBe(stalls.summary()!.p50Ms);
    // A provider without a tail: two slow calls in a row shift it to them.
    const steady = model(400, 50);
    steady.record(200, t + 200);
    steady.record(220, t + 260);
    expect(steady.at(t + 260)!.p50Ms).toBeCloseTo(200, 6);
  });

  it('caller-deadline cuts beyond the knee count in a run of slow calls (a move to the bound); hedge losers and cuts within the knee do not', () => {
    const t = 401 * 40;
    // One stall in five: four cuts in a row at 300 ms (a caller's deadline) are taken for a move
    // to at least 300 ms; one is not.
    const cut = model(400, 50, 5);
    const base = cut.summary()!.p50Ms;
    cut.recordCallerTimeout(300, t + 300);
    expect(cut.at(t + 300)!.p50Ms).toBe(base);
    for (let i = 1; i < 4; i++) cut.recordCallerTimeout(300, t + 300 + i * 340);
    expect(cut.at(t + 300 + 3 * 340)!.p50Ms).toBeCloseTo(300, 6);
    // Faded 5 s later to within 1/e of the move.
    expect(cut.at(t + 300 + 3 * 340 + 5_000)!.p50Ms).toBeCloseTo(base + (300 - base) / Math.E, 6);
    // The same waits as hedge losers (recordCensored) make no move.
    const lost = model(400, 50, 5);
    for (let i = 0; i < 4; i++) lost.recordCensored(300, t + 300 + i * 340);
    expect(lost.at(t + 300 + 3 * 340)!.p50Ms).toBe(base);
    // Cuts within the knee (a caller deadline tighter than the provider's normal latency) say nothing.
    const tight = model(400, 50, 5);
    const before = tight.summary();
    for (let i = 0; i < 4; i++) tight.recordCallerTimeout(20, t + 20 + i * 40);
    expect(tight.at(t + 140)).toEqual(before);
  });

  it('parallel-calls-slow-answers-last: a move is read from the calls that started last, not from the answers that came last', () => {
    const t = 401 * 40;
    // Two calls stall (started at t and t + 50) while one started after them answers fast: the
    // stalls answer last, but the call that started last says the provider is as it was.
    const parallel = model(400, 50);
    parallel.record(50, t + 150); // started at t + 100
    parallel.record(600, t + 600); // started at t
    parallel.record(600, t + 650); // started at t + 50
    expect(parallel.at(t + 650)!.p50Ms).toBe(parallel.summary()!.p50Ms);
    // The same answers from calls that started after the fast one: a move to 600 ms.
    const moved = model(400, 50);
    moved.record(50, t + 150); // started at t + 100
    moved.record(600, t + 800); // started at t + 200
    moved.record(600, t + 850); // started at t + 250
    expect(moved.at(t + 850)!.p50Ms).toBeCloseTo(600, 6);
    // A sample from a call older than every kept one (four later starts) cannot make a move.
    const late = model(400, 50);
    for (let i = 0; i < 4; i++) late.record(50, t + 300 + 10 * i); // started at t + 250 ...
    late.record(600, t + 900); // started at t + 300: after them, kept
    late.record(900, t + 910); // started at t + 10: before all four, dropped
    expect(late.at(t + 910)!.p50Ms).toBe(late.summary()!.p50Ms);
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

  it('never hedges inside the body, even when the share cap would allow it: the delay is the knee', () => {
    const c = model(400, 50, 12).summary()!;
    expect(autoHedgeDelayMs(c, steady, 0.5)).toBe(c.kneeMs);
    expect(autoHedgeDelayMs(c, steady, 1)).toBe(c.kneeMs);
  });

  it('the share cap of the objective follows the budget: maxShare x tokens', () => {
    expect([
      budgetShareCap(0.1, 5),
      budgetShareCap(0.1, 2),
      budgetShareCap(0.1, 0.5),
      budgetShareCap(0.1, 0),
    ]).toEqual([0.5, 0.2, 0.05, 0]);
  });

  it('a full budget prices a 20% tail as hedged at its knee (it stays first); a low one prices it unhedged and the steadier provider wins', () => {
    const c = model(400, 50, 5).summary()!;
    const inputs = [
      { model: c, quantiles: { samples: 400, p95Ms: undefined, p99Ms: undefined }, healthy: true },
      { model: steady, quantiles: { samples: 400, p95Ms: undefined, p99Ms: undefined }, healthy: true },
    ];
    const hedge = { after: 'auto', maxShare: 0.1 } as const;
    const [fullC, fullB] = planCandidates(inputs, hedge, budgetShareCap(0.1, 5), 1);
    expect(fullC!.hedgeAfterMs).toBe(c.kneeMs);
    expect(fullC!.objectiveMs).toBe(objectiveMs(c, steady, c.kneeMs));
    expect(fullC!.objectiveMs!).toBeLessThan(fullB!.objectiveMs!);
    const [lowC, lowB] = planCandidates(inputs, hedge, budgetShareCap(0.1, 1.5), 1);
    expect(lowC!.objectiveMs).toBe(objectiveMs(c, steady, undefined));
    expect(lowB!.objectiveMs!).toBeLessThan(lowC!.objectiveMs!);
    // Whoever goes first, a token in hand hedges c's tail at its knee.
    expect(lowC!.hedgeAfterMs).toBe(c.kneeMs);
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
