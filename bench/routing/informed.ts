/**
 * The informed reference of the routing benchmark (issue 13): a router that knows each
 * provider's latency distribution at every moment of the scenario (a's drifting median, b's
 * outages, c's body and tail), but not the draw of the request in hand. It ranks options by
 * the objective voxroute uses (src/routing/hedge-delay.ts objectiveMs) and spends a budget of
 * 10% of the requests in expected hedges over the whole run where they save the most (see
 * {@link informedReference}); a request then takes min(L1, d + L2) ms with the scenario's real
 * latencies. What voxroute's learning costs is the distance between it and this row.
 */
import { objectiveMs } from '../../src/routing/hedge-delay.js';
import type { Point, TailSummary } from '../../src/routing/tail.js';
import { mulberry32, normal } from './prng.js';
import { PROVIDERS, type ProviderName, type Scenario, typicalMs } from './scenario.js';

/** The hedge share the reference may use. */
export const INFORMED_MAX_SHARE = 0.1;
/** Points used for a smooth part of a distribution. */
const POINTS = 24;

/** Standard normal quantile points (deterministic: a fixed seed, sorted). */
const Z: number[] = (() => {
  const random = mulberry32(12_345);
  const draws = Array.from({ length: 4_000 }, () => normal(random)).sort((x, y) => x - y);
  return Array.from({ length: POINTS }, (_, j) => draws[Math.floor(((j + 0.5) / POINTS) * draws.length)]!);
})();

function lognormal(medianMs: number, sigma: number, weight: number): Point[] {
  return Z.map((z) => ({ ms: medianMs * Math.exp(sigma * z), p: weight / POINTS }));
}

function summaryOf(body: Point[], tail: Point[]): TailSummary {
  const kneeMs = Math.max(...body.map((p) => p.ms)) * 1.05;
  const points = [...body, ...tail].sort((x, y) => x.ms - y.ms);
  const tailShare = tail.reduce((n, p) => n + p.p, 0);
  const tailMean = tailShare > 0 ? tail.reduce((n, p) => n + p.p * p.ms, 0) / tailShare : kneeMs;
  const q = (x: number) => {
    let acc = 0;
    for (const p of points) {
      acc += p.p;
      if (acc >= x) return p.ms;
    }
    return points[points.length - 1]!.ms;
  };
  return {
    samples: Number.POSITIVE_INFINITY,
    p50Ms: q(0.5),
    p90Ms: q(0.9),
    p95Ms: q(0.95),
    p99Ms: q(0.99),
    kneeMs,
    tailShare,
    tailExcessMs: tailMean - kneeMs,
    tailSeen: true,
    failShare: 0,
    failMs: 0,
    points,
    meanMs: points.reduce((n, p) => n + p.p * p.ms, 0),
  };
}

/** The distribution of provider `p` at request i, as the scenario draws it. */
function distributionOf(s: Scenario, p: ProviderName, i: number): TailSummary {
  const f = s.profile;
  if (p !== 'c') return summaryOf(lognormal(typicalMs(s, p, i), f.jitterSigma, 1), []);
  const body = lognormal(f.cMedianMs, f.jitterSigma, 1 - f.cTailRate);
  const tail =
    f.cStallMs !== undefined
      ? lognormal(f.cStallMs, f.jitterSigma, f.cTailRate)
      : Array.from({ length: POINTS }, (_, j) => ({
          ms: Math.min(f.cTailCapMs, f.cTailScaleMs * (1 - (j + 0.5) / POINTS) ** (-1 / f.cTailShape)),
          p: f.cTailRate / POINTS,
        }));
  return summaryOf(body, tail);
}

/** One way to serve a request: first choice, backup, hedge delay; its objective and hedge share. */
interface Option {
  first: ProviderName;
  backup: ProviderName | undefined;
  /** Hedge delay, ms; undefined: no hedge. */
  d: number | undefined;
  /** The objective J (hedge-delay.ts objectiveMs), ms. */
  j: number;
  /** P(first > d): the share of such calls that hedge. */
  h: number;
}

/**
 * The options of request i: for each provider up then as first choice, unhedged or hedged to
 * the provider up with the lowest expected TTFC at its knee or one of its points beyond it;
 * reduced to the lower convex hull in (h, J) (from no hedge to more hedging, J falling ever
 * more slowly), the only options a budgeted optimum ever uses.
 */
function optionsOf(s: Scenario, i: number): Option[] {
  const up = PROVIDERS.filter((p) => !s.outcomes[p][i]!.fails);
  const dist = new Map(up.map((p) => [p, distributionOf(s, p, i)]));
  const all: Option[] = [];
  for (const first of up) {
    const x = dist.get(first)!;
    const backup = up.filter((p) => p !== first).sort((p, q) => dist.get(p)!.meanMs - dist.get(q)!.meanMs)[0];
    all.push({ first, backup, d: undefined, j: objectiveMs(x, undefined, undefined), h: 0 });
    if (!backup) continue;
    const y = dist.get(backup)!;
    for (const d of [x.kneeMs, ...x.points.map((p) => p.ms).filter((ms) => ms > x.kneeMs)]) {
      const h = x.points.reduce((n, p) => n + (p.ms > d ? p.p : 0), 0);
      if (h > 0) all.push({ first, backup, d, j: objectiveMs(x, y, d), h });
    }
  }
  all.sort((a, b) => a.h - b.h || a.j - b.j);
  const hull: Option[] = [];
  for (const o of all) {
    if (hull.length && o.j >= hull[hull.length - 1]!.j) continue; // more hedging, no gain
    while (hull.length >= 2) {
      const [p, q] = [hull[hull.length - 2]!, hull[hull.length - 1]!];
      // q is not on the lower hull if the step p -> o saves more per hedge than p -> q.
      if ((p.j - q.j) / (q.h - p.h) <= (p.j - o.j) / (o.h - p.h)) hull.pop();
      else break;
    }
    hull.push(o);
  }
  return hull;
}

/** The informed reference's run: time to first audio per request, ms (Infinity: every provider fails), and its hedges. */
export interface InformedRun {
  ms: number[];
  /** Hedges the reference sent (requests whose first choice had no answer at the hedge delay). */
  hedges: number;
  /** Expected hedges of its plan (at most INFORMED_MAX_SHARE x requests). */
  plannedHedges: number;
}

/**
 * The informed reference over the whole scenario. It plans every request from the
 * distributions alone (never the draw) and spends a long-run budget of INFORMED_MAX_SHARE x
 * requests expected hedges where they lower the objective most: each request starts at its
 * best unhedged option, then, over all requests at once, the steps along each request's hull
 * that save the most objective per expected hedge are taken first while the budget lasts
 * (the greedy solution of the budgeted problem). So it may hedge every call of a provider
 * that stalls on one call in five during an outage of the steady one, and none elsewhere.
 */
export function informedReference(s: Scenario): InformedRun {
  const hulls = Array.from({ length: s.requests }, (_, i) => optionsOf(s, i));
  const chosen = hulls.map(() => 0);
  const steps: Array<{ i: number; k: number; gain: number; dh: number }> = [];
  hulls.forEach((hull, i) => {
    for (let k = 1; k < hull.length; k++) {
      const dh = hull[k]!.h - hull[k - 1]!.h;
      steps.push({ i, k, gain: (hull[k - 1]!.j - hull[k]!.j) / dh, dh });
    }
  });
  steps.sort((a, b) => b.gain - a.gain || a.k - b.k || a.i - b.i);
  let budget = INFORMED_MAX_SHARE * s.requests;
  for (const step of steps) {
    if (chosen[step.i] !== step.k - 1 || step.dh > budget + 1e-9) continue;
    chosen[step.i] = step.k;
    budget -= step.dh;
  }
  let hedges = 0;
  let planned = 0;
  const ms = hulls.map((hull, i) => {
    const o = hull[chosen[i]!];
    if (!o) return Number.POSITIVE_INFINITY;
    planned += o.h;
    const l1 = s.outcomes[o.first][i]!.latencyMs;
    if (o.d === undefined || !o.backup || l1 <= o.d) return l1;
    hedges++;
    return Math.min(l1, o.d + s.outcomes[o.backup][i]!.latencyMs);
  });
  return { ms, hedges, plannedHedges: planned };
}

/** Per request: the informed reference's time to first audio, ms (Infinity: every provider fails). */
export function informedReferenceMs(s: Scenario): number[] {
  return informedReference(s).ms;
}
