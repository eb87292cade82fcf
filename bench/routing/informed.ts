/**
 * The informed reference of the routing benchmark (issue 13): a router that knows each
 * provider's latency distribution at every moment of the scenario (a's drifting median, b's
 * outages, c's body and tail), but not the draw of the request in hand. Per request it feeds
 * those exact distributions to the same optimiser voxroute uses (src/routing/hedge-delay.ts):
 * first choice by the objective, hedge delay minimising expected time to first audio under a
 * 10% hedge share, hedged to the next provider by the objective. A request then takes
 * min(L1, d + L2) ms with the scenario's real latencies. What voxroute's learning costs is the
 * distance between it and this row.
 */
import { type PlanInput, planCandidates } from '../../src/routing/hedge-delay.js';
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

/** Per request: the informed reference's time to first audio, ms (Infinity: every provider fails). */
export function informedReferenceMs(s: Scenario): number[] {
  const hedge = { after: 'auto' as const, maxShare: INFORMED_MAX_SHARE };
  const out: number[] = [];
  for (let i = 0; i < s.requests; i++) {
    // It knows which providers fail right now (b's outages and isolated failures).
    const up = PROVIDERS.filter((p) => !s.outcomes[p][i]!.fails);
    const inputs: PlanInput[] = up.map((p) => ({
      model: distributionOf(s, p, i),
      quantiles: { samples: 0, p95Ms: undefined, p99Ms: undefined },
      healthy: true,
    }));
    const plan = planCandidates(inputs, hedge);
    const order = up
      .map((p, k) => ({ p, j: plan[k]!.objectiveMs ?? Number.POSITIVE_INFINITY, d: plan[k]!.hedgeAfterMs }))
      .sort((x, y) => x.j - y.j);
    const [first, second] = order;
    if (!first) {
      out.push(Number.POSITIVE_INFINITY);
      continue;
    }
    const l1 = s.outcomes[first.p][i]!.latencyMs;
    out.push(
      second && first.d !== undefined ? Math.min(l1, first.d + s.outcomes[second.p][i]!.latencyMs) : l1,
    );
  }
  return out;
}
