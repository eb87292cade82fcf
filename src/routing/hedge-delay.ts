/**
 * The routing objective and the hedge delay, computed from the learned distributions of
 * tail.ts (docs/routing.md, "Objective"):
 *
 *   T = min(X, d + Y)      time to first audio of a call on primary X hedged after d to Y
 *   J = (1 - f) x (E[T] + TAIL_PENALTY x E[(T - knee)+]) + f x (failMs + E[Y] + TAIL_PENALTY x E[(Y - knee_Y)+])
 *       + price x (f + (1 - f) x P(X > d))
 *
 * where f is the primary's failure share for the next call ({@link failShareOf}), knee its
 * knee and price the token price of the budget (0 by default; {@link planCandidates}). The
 * router's plan weighs the tail penalty by {@link drainedTailPenalty} (x1 full, x3 empty). `after: 'auto'` picks, per call,
 * the d minimising E[T] + HEDGE_PRICE x E[Y] x P(X > d) among the d with P(X > d) <= maxShare.
 */
import type { HedgeSetting } from '../config/route.js';
import { AFFORDABLE_SHARE_FACTOR, balancePriceMs, balanceScale, type PricedLine } from './balance-price.js';
import { type Point, PRIOR_TAIL_RATIO, type TailSummary } from './tail.js';

/** Weight of the expected excess beyond the knee in the objective (the tail penalty). */
export const TAIL_PENALTY = 1;
/**
 * How much the tail penalty grows as the hedge budget drains: TAIL_PENALTY x (1 +
 * DRAINED_TAIL_WEIGHT x drain), 3x when the ledger is empty ({@link drainedTailPenalty}).
 */
export const DRAINED_TAIL_WEIGHT = 2;

/**
 * The tail penalty of the router's objective at the budget's `drain` (balance-price.ts budgetDrain):
 * TAIL_PENALTY x (1 + DRAINED_TAIL_WEIGHT x drain). A tail that no token is left to hedge is
 * what the caller hears: as the ledger drains, a provider with a frequent tail loses its place
 * to a steadier one sooner, and the ledger refills for the tails that are left.
 */
export function drainedTailPenalty(drain: number): number {
  return TAIL_PENALTY * (1 + DRAINED_TAIL_WEIGHT * drain);
}
/**
 * The price of one hedge, as a share of the backup's expected TTFC: a hedge that saves less
 * than that is not worth its extra request, so `auto` hedges at the knee, not inside the body.
 */
export const HEDGE_PRICE = 0.1;
/**
 * Warm samples a primary needs before an `auto` hedge delay is computed: 2 (the knee is then at
 * least KNEE_MIN_RATIO x their median). A provider's first call is not a warm sample (it is
 * kept out of the learned distribution), so at 3 a fast provider went unhedged for its first
 * four calls or so, while the bucket was full.
 */
export const AUTO_HEDGE_MIN_SAMPLES = 2;
/** Samples needed before a `p95`/`p99` hedge delay follows the measured tail. */
export const QUANTILE_HEDGE_MIN_SAMPLES = 5;

/** E[T] and E[(T - knee)+] for T = min(X, d + Y) (Y absent or d = Infinity: T = X). */
export function expectations(
  x: readonly Point[],
  y: readonly Point[] | undefined,
  d: number,
  knee: number,
): { mean: number; excess: number } {
  let mean = 0;
  let excess = 0;
  for (const a of x) {
    if (!y || a.ms <= d) {
      mean += a.p * a.ms;
      excess += a.p * Math.max(0, a.ms - knee);
      continue;
    }
    for (const b of y) {
      const t = Math.min(a.ms, d + b.ms);
      mean += a.p * b.p * t;
      excess += a.p * b.p * Math.max(0, t - knee);
    }
  }
  return { mean, excess };
}

/** P(X > d). */
function survival(x: readonly Point[], d: number): number {
  let s = 0;
  for (const a of x) if (a.ms > d) s += a.p;
  return s;
}

/**
 * The `auto` hedge delay of a primary with distribution `x` and backup `y`, in ms: the d that
 * minimises E[min(X, d + Y)] + HEDGE_PRICE x E[Y] x P(X > d) among delays with
 * P(X > d) <= maxShare; undefined when no hedge is worth its price (or none is allowed).
 * Candidates for d: the knee and the primary's points beyond it. Never inside the body: a
 * hedge there mostly races calls that were about to answer (the objective is nearly flat
 * inside the body, so its noise would pick the delay and waste the budget).
 */
export function autoHedgeDelayMs(
  x: TailSummary,
  y: TailSummary | undefined,
  maxShare: number,
): number | undefined {
  if (x.samples < AUTO_HEDGE_MIN_SAMPLES || maxShare <= 0) return undefined;
  // An unmeasured backup is assumed to be like the primary.
  const backup = y ?? x;
  const price = HEDGE_PRICE * backup.meanMs;
  // A tail not seen yet is assumed heavy (PRIOR_TAIL_RATIO x the knee) for this decision.
  const points = x.tailSeen
    ? x.points
    : x.points.map((p) => (p.ms > x.kneeMs ? { ms: PRIOR_TAIL_RATIO * x.kneeMs, p: p.p } : p));
  let best: number | undefined;
  let bestCost = points.reduce((n, p) => n + p.ms * p.p, 0);
  const delays = [x.kneeMs, ...points.map((p) => p.ms).filter((ms) => ms > x.kneeMs)].sort((a, b) => a - b);
  for (const d of delays) {
    const share = survival(points, d);
    if (share > maxShare || share === 0) continue;
    const cost = expectations(points, backup.points, d, x.kneeMs).mean + price * share;
    if (cost < bestCost - 1e-9) {
      bestCost = cost;
      best = d;
    }
  }
  return best;
}

/**
 * The hedge delay of a primary under the route's setting, in ms; undefined: no hedge.
 * `shareCap` is the share of calls an `auto` hedge may take (default: the route's maxShare).
 */
export function hedgeDelayMs(
  hedge: HedgeSetting,
  primary: TailSummary | undefined,
  backup: TailSummary | undefined,
  quantiles: { samples: number; p95Ms: number | undefined; p99Ms: number | undefined },
  shareCap = hedge.maxShare,
): number | undefined {
  if (typeof hedge.after === 'number') return hedge.after;
  if (hedge.after === 'auto') return primary ? autoHedgeDelayMs(primary, backup, shareCap) : undefined;
  if (quantiles.samples < QUANTILE_HEDGE_MIN_SAMPLES) return undefined;
  return hedge.after === 'p95' ? quantiles.p95Ms : quantiles.p99Ms;
}

/**
 * The failure share the router plans with: the recent one when there is one (tail.ts
 * TailSummary.recentFailShare: after a failure the after-failure share, 1 when failures in a
 * row make the provider down), else the long-run share, so an outage counts from its first
 * failures.
 */
export function failShareOf(x: TailSummary): number {
  return x.recentFailShare ?? x.failShare;
}

/**
 * The objective J of a primary (see the file comment), in ms: what the `latency` strategy ranks
 * by. `hedgeMs` undefined: no hedge (T = X). `tokenPriceMs` (default 0) prices each extra
 * request the call is expected to make, a fallback after a failure (share f) or a hedge (share
 * P(X > d) of the calls that did not fail): J += tokenPriceMs x (f + (1 - f) x P(X > d)).
 */
export function objectiveMs(
  x: TailSummary,
  y: TailSummary | undefined,
  hedgeMs: number | undefined,
  tokenPriceMs = 0,
  tailPenalty = TAIL_PENALTY,
): number {
  // tailPenalty: the weight of E[(T - knee)+] (default TAIL_PENALTY; the plan's drainedTailPenalty).
  const d = hedgeMs ?? Number.POSITIVE_INFINITY;
  const e = expectations(x.points, y && hedgeMs !== undefined ? y.points : undefined, d, x.kneeMs);
  const ok = e.mean + tailPenalty * e.excess;
  const f = failShareOf(x);
  const extra = tokenPriceMs > 0 ? extraShareOf(x, y, hedgeMs) : 0;
  return (1 - f) * ok + f * (x.failMs + fallbackMs(y ?? x)) + tokenPriceMs * extra;
}

/** What the fallback after a failure costs, ms: the backup unhedged, E[Y] + TAIL_PENALTY x E[(Y - knee)+]. */
function fallbackMs(y: TailSummary): number {
  return (
    y.meanMs + TAIL_PENALTY * expectations(y.points, undefined, Number.POSITIVE_INFINITY, y.kneeMs).excess
  );
}

/**
 * What a provider costs as the backup of a hedge, in ms: its expected TTFC, plus failMs for the
 * share r of hedges it fails now (TailSummary.recentFailShare), after which a replacement starts:
 * (1 - r) x E[Y] + r x (failMs + E[Y]).
 */
export function backupCostMs(y: TailSummary): number {
  const r = failShareOf(y);
  return (1 - r) * y.meanMs + r * (y.failMs + y.meanMs);
}

/**
 * What one hedge of a tail call of `x` to `y` saves, in ms: the tail's mean beyond the knee
 * minus the backup's expected TTFC, (tailExcess - E[Y])+; 0 before a tail is seen.
 */
export function hedgeValueMs(x: TailSummary, y: TailSummary): number {
  return x.tailSeen ? Math.max(0, x.tailExcessMs - y.meanMs) : 0;
}

/** A candidate as {@link planCandidates} sees it. */
export interface PlanInput {
  /** Its learned distribution; undefined when never measured. */
  model: TailSummary | undefined;
  /** Its measured quantiles (for `p95`/`p99` hedge delays). */
  quantiles: { samples: number; p95Ms: number | undefined; p99Ms: number | undefined };
  /** False when its breaker refuses calls. */
  healthy: boolean;
  /**
   * True when the route's hedge delay does not apply to it as a first choice (a streaming STT
   * provider under a learned delay: planner.ts): its J counts its tail unhedged, as it runs, and
   * it gets no hedge delay. It may still be another's backup. Absent: false.
   */
  unhedged?: boolean;
}

/**
 * Per candidate: its objective J (ms; undefined when never measured), its hedge delay (ms;
 * undefined: none) and its backup: the other healthy measured candidate with the lowest
 * {@link backupCostMs} (the hedge goes there: planner.ts puts it second). J counts an `auto`
 * hedge that takes at most `shareCap` of calls (default: the route's maxShare): what decides
 * the first choice. The hedge delay itself may take up to `delayCap` (default: `shareCap`): a
 * call whose first choice is settled hedges its tail at the knee whenever the budget has a
 * token for it, even when the budget cannot sustain that share. `drain` (balance-price.ts
 * {@link budgetDrain}, default 0) weighs the tail penalty ({@link drainedTailPenalty}) and sets
 * the drain price of an extra request in J: drain x the most one hedge saves on the route now
 * ({@link hedgeValueMs} over the candidates and their backups). With `balance` (the ledger's
 * balance in tokens and the route's maxShare) the token price is the larger of that and the
 * balance price, {@link balancePriceMs} at AFFORDABLE_SHARE_FACTOR x maxShare times
 * {@link balanceScale}(tokens). The price applies with `hedge` undefined too (the planner
 * passes none once the ledger holds less than a token): no hedge is planned then, but a
 * fallback after a failure still takes a token.
 */
export function planCandidates(
  inputs: readonly PlanInput[],
  hedge: HedgeSetting | undefined,
  shareCap = hedge?.maxShare ?? 0,
  delayCap = shareCap,
  drain = 0,
  balance?: { tokens: number; maxShare: number },
): PlannedCandidate[] {
  // The backup of each candidate: the healthy measured other one with the lowest backup cost.
  const backupOf = (i: number) => {
    let best: number | undefined;
    let bestCost = Number.POSITIVE_INFINITY;
    inputs.forEach((o, j) => {
      if (j === i || !o.healthy || !o.model) return;
      const cost = backupCostMs(o.model);
      if (cost < bestCost) {
        best = j;
        bestCost = cost;
      }
    });
    return best;
  };
  const tailPenalty = drainedTailPenalty(drain);
  // Each candidate's objective before the token price, J0, and its expected extra requests.
  const planned = inputs.map((c, i): PlannedCandidate & PricedLine => {
    const backupIndex = backupOf(i);
    const backup = backupIndex === undefined ? undefined : inputs[backupIndex]!.model;
    const hedged = hedge !== undefined && c.unhedged !== true ? hedge : undefined;
    const priced = hedged ? hedgeDelayMs(hedged, c.model, backup, c.quantiles, shareCap) : undefined;
    const hedgeAfterMs =
      hedged && delayCap !== shareCap ? hedgeDelayMs(hedged, c.model, backup, c.quantiles, delayCap) : priced;
    const counted = inputs.length > 1 ? priced : undefined;
    return {
      objectiveMs: c.model ? objectiveMs(c.model, backup, counted, 0, tailPenalty) : undefined,
      hedgeAfterMs,
      backupIndex,
      extraShare: c.model ? extraShareOf(c.model, backup, counted) : 0,
      healthy: c.healthy,
    };
  });
  // The token price: the drain price, or the balance price when it is higher.
  let priceMs = 0;
  if (drain > 0 || balance) {
    let valueMs = 0;
    for (let i = 0; i < inputs.length; i++) {
      const model = inputs[i]!.model;
      const j = planned[i]!.backupIndex;
      if (model && j !== undefined) valueMs = Math.max(valueMs, hedgeValueMs(model, inputs[j]!.model!));
    }
    priceMs = valueMs * drain;
    if (balance) {
      const p = balancePriceMs(planned, AFFORDABLE_SHARE_FACTOR * balance.maxShare);
      priceMs = Math.max(priceMs, p * balanceScale(balance.tokens));
    }
  }
  if (priceMs > 0) {
    for (const p of planned) if (p.objectiveMs !== undefined) p.objectiveMs += priceMs * p.extraShare;
  }
  return planned;
}

/**
 * The extra requests a call on `x` expects when hedged after `hedgeMs` to `y` (undefined: no
 * hedge): f + (1 - f) x P(X > d), the failure share (a fallback) plus the hedge share.
 */
export function extraShareOf(
  x: TailSummary,
  y: TailSummary | undefined,
  hedgeMs: number | undefined,
): number {
  const f = failShareOf(x);
  return f + (1 - f) * (y && hedgeMs !== undefined ? survival(x.points, hedgeMs) : 0);
}

/** What {@link planCandidates} says of one candidate. */
export interface PlannedCandidate {
  /** Its objective J, ms; undefined when never measured. */
  objectiveMs: number | undefined;
  /** Its hedge delay as a first choice, ms; undefined: no hedge. */
  hedgeAfterMs: number | undefined;
  /** The candidate its hedge (and J) counts on as the backup; undefined: none. */
  backupIndex: number | undefined;
  /** Its expected extra requests per call as a first choice ({@link extraShareOf}), in [0, 1]. */
  extraShare: number;
}

/**
 * The share of calls an `auto` hedge may take in the objective of a call planned now, from the
 * budget's level: maxShare x tokens, i.e. the hedges a first choice with that tail share would
 * take over the next 1 / maxShare calls are in the bucket. So a tail more frequent than
 * maxShare is priced as hedged at its knee while the budget lasts (the first choice stays put),
 * and a full bucket covers a run of stalls; as the level falls the cap falls with it and the
 * objective turns to a steadier provider, unhedged, until the bucket refills: the long-run
 * share stays at maxShare, which the bucket enforces whatever the cap.
 */
export function budgetShareCap(maxShare: number, tokens: number): number {
  return Math.max(0, maxShare * tokens);
}

/** The tracker's side of {@link planRoute}. */
interface TrackerView {
  model(key: string, now: number): TailSummary | undefined;
  tail(key: string): { samples: number; p95Ms: number | undefined; p99Ms: number | undefined };
  noteHedgeDelay(key: string, ms: number | undefined): void;
}

/**
 * {@link planCandidates} over the tracker's figures at monotonic time `now` for `candidates` (with `healthy[i]`
 * false where the breaker refuses calls); notes each hedge delay in the tracker for
 * router.stats().
 */
export function planRoute(
  tracker: TrackerView,
  candidates: ReadonlyArray<{ key: string; healthy: boolean; unhedged?: boolean }>,
  hedge: HedgeSetting | undefined,
  now: number,
  shareCap = hedge?.maxShare ?? 0,
  delayCap = shareCap,
  drain = 0,
  balance?: { tokens: number; maxShare: number },
): PlannedCandidate[] {
  const planned = planCandidates(
    candidates.map((c) => ({
      model: tracker.model(c.key, now),
      quantiles: tracker.tail(c.key),
      healthy: c.healthy,
      ...(c.unhedged ? { unhedged: true } : {}),
    })),
    hedge,
    shareCap,
    delayCap,
    drain,
    balance,
  );
  candidates.forEach((c, i) => {
    tracker.noteHedgeDelay(c.key, planned[i]!.hedgeAfterMs);
  });
  return planned;
}
