/**
 * How a route orders its candidate providers:
 * - `latency`: the lowest latency score first (power of two choices among near-best
 *   candidates), with bounded probing;
 * - `priority`: the listed order (what fixed fallback lists do);
 * - `weighted`: a random draw in proportion to the route's `weights`;
 * - `cost`: the cheapest provider whose score is within `costLatencyFactor` of the best.
 */
export type Strategy = 'latency' | 'priority' | 'weighted' | 'cost';

/** A candidate as the selection sees it: its place in the route's list and its measurements. */
export interface ScoredCandidate {
  /** Index in the route's `providers` list. */
  index: number;
  /** Latency score (LatencyTracker.score: confirmed peak-EWMA of TTFC) in ms; undefined when never measured. */
  scoreMs: number | undefined;
  /** Monotonic time (ms) of its last attempt's outcome (success or failure); undefined when never tried. */
  lastTriedAt: number | undefined;
  /** Attempts running on it now. Default: 0. */
  inFlight?: number;
  /** False when its circuit breaker refuses calls now. Default: true. */
  healthy?: boolean;
  /** Weight for `weighted` (default 1). */
  weight?: number;
  /** Cost for `cost` (any unit, lower is cheaper; default 0). */
  cost?: number;
  /**
   * True when its only measurement is its first call's, an upper bound (connection setup, lazy
   * loading) with no outcome since: `latency` re-tries it soon, as a probe. Default: false.
   */
  retrySoon?: boolean;
}

/** Options of {@link orderCandidates}. */
export interface SelectOptions {
  strategy: Strategy;
  /** Monotonic now, in ms. */
  now: number;
  /**
   * A provider not tried for this long (ms) is probed again: it goes first once, so the router
   * learns whether it got faster or came back. Default: 30 000 ms.
   */
  probeAfterMs?: number;
  /** Uniform random numbers in [0, 1). Default: Math.random. */
  random?: () => number;
  /** `cost`: providers whose score is at most this many times the best score are "fast enough". Default: 1.5. */
  costLatencyFactor?: number;
  /**
   * How much attempts already running on a provider count against it: its score is multiplied
   * by (1 + inFlightWeight x in-flight). 0 (default) ignores load, right for third-party APIs
   * whose latency does not depend on our few calls; 1 gives the classic peak-EWMA x
   * (in-flight + 1) of load balancers, for self-hosted servers that slow down under load.
   */
  inFlightWeight?: number;
}

/**
 * Candidates whose load-aware score is within this factor of the lowest are "near-best": power
 * of two choices draws among them only, so a clearly slower provider is never picked by chance.
 */
export const NEAR_BEST_FACTOR = 1.25;

/**
 * The load-aware score of a measured candidate, in ms: its latency score x (1 + inFlightWeight
 * x in-flight); `inFlightWeight` defaults to 0. Unmeasured candidates score Infinity (they are
 * reached through probing instead).
 */
export function score(c: ScoredCandidate, inFlightWeight = 0): number {
  return c.scoreMs === undefined
    ? Number.POSITIVE_INFINITY
    : c.scoreMs * (1 + inFlightWeight * (c.inFlight ?? 0));
}

/**
 * Orders candidates for one call; returns indexes into the route's list, in the order to try.
 * Candidates whose breaker refuses calls go last (in listed order), so a call still has
 * somewhere to go when every provider is cooling down.
 *
 * `latency`: first one probe: a candidate never tried, or not tried for `probeAfterMs`, that has
 * no attempt running (so concurrent calls do not burst a new provider), in listed order; else
 * one whose only measurement is a cold first call (`retrySoon`), so that one cold sample does
 * not keep it out until `probeAfterMs`; then
 * the lowest load-aware score; when three or more candidates are near-best (within
 * {@link NEAR_BEST_FACTOR} of the lowest), power of two choices among them: two drawn at
 * random, the lower score first, so load spreads over equivalent providers; then the rest by
 * score, lowest first (never measured last); ties keep the listed order.
 */
export function orderCandidates(candidates: readonly ScoredCandidate[], options: SelectOptions): number[] {
  const healthy = candidates.filter((c) => c.healthy !== false);
  const resting = candidates.filter((c) => c.healthy === false);
  const random = options.random ?? Math.random;
  const weight = options.inFlightWeight ?? 0;
  const scoreOf = (c: ScoredCandidate) => score(c, weight);
  const byScore = (a: ScoredCandidate, b: ScoredCandidate) => scoreOf(a) - scoreOf(b) || a.index - b.index;
  let ordered: ScoredCandidate[];
  switch (options.strategy) {
    case 'priority':
      ordered = healthy;
      break;
    case 'weighted':
      ordered = weightedOrder(healthy, random);
      break;
    case 'cost': {
      const sorted = [...healthy].sort(byScore);
      const best = sorted[0] ? scoreOf(sorted[0]) : Number.POSITIVE_INFINITY;
      const bound = best * (options.costLatencyFactor ?? 1.5);
      const fastEnough = sorted.filter((c) => scoreOf(c) <= bound);
      const cheapest = [...fastEnough].sort((a, b) => (a.cost ?? 0) - (b.cost ?? 0) || byScore(a, b))[0];
      ordered = cheapest ? [cheapest, ...sorted.filter((c) => c !== cheapest)] : sorted;
      break;
    }
    case 'latency': {
      const probeAfter = options.probeAfterMs ?? 30_000;
      const idle = (c: ScoredCandidate) => (c.inFlight ?? 0) === 0;
      const probe =
        healthy.find(
          (c) => idle(c) && (c.lastTriedAt === undefined || options.now - c.lastTriedAt > probeAfter),
        ) ?? healthy.find((c) => idle(c) && c.retrySoon === true);
      const rest = healthy.filter((c) => c !== probe).sort(byScore);
      const lowest = rest[0] ? scoreOf(rest[0]) : Number.POSITIVE_INFINITY;
      const nearBest = rest.filter((c) => c.scoreMs !== undefined && scoreOf(c) <= lowest * NEAR_BEST_FACTOR);
      if (nearBest.length > 2) {
        const i = Math.floor(random() * nearBest.length);
        let j = Math.floor(random() * (nearBest.length - 1));
        if (j >= i) j++;
        const pair = [nearBest[i]!, nearBest[j]!].sort(byScore);
        const first = pair[0]!;
        rest.splice(rest.indexOf(first), 1);
        rest.unshift(first);
      }
      ordered = probe ? [probe, ...rest] : rest;
      break;
    }
  }
  return [...ordered, ...resting].map((c) => c.index);
}

/**
 * A weighted random order: each next pick drawn in proportion to the remaining weights, each
 * divided by the largest of them first (so that weights near the largest finite number split as
 * written instead of summing to Infinity). Weight 0 is drawn only after every weight above 0;
 * among candidates left with weight 0 only, the listed order (no draw).
 */
function weightedOrder(candidates: readonly ScoredCandidate[], random: () => number): ScoredCandidate[] {
  const pool = [...candidates];
  const out: ScoredCandidate[] = [];
  while (pool.length) {
    const weights = pool.map((c) => weightOf(c));
    const max = Math.max(...weights);
    // One draw per pick, always: the sequence of draws does not depend on the weights.
    const r = random();
    let pick = 0;
    if (max > 0) {
      const shares = weights.map((w) => w / max);
      let draw = r * shares.reduce((n, w) => n + w, 0);
      // The last candidate with a share, should rounding leave the draw at or above the total.
      pick = shares.findLastIndex((w) => w > 0);
      for (let i = 0; i < pool.length; i++) {
        draw -= shares[i]!;
        if (draw < 0 && shares[i]! > 0) {
          pick = i;
          break;
        }
      }
    }
    out.push(pool.splice(pick, 1)[0]!);
  }
  return out;
}

/** A candidate's weight for a draw: 1 when unset, 0 for anything not a finite number above 0. */
function weightOf(candidate: ScoredCandidate): number {
  const weight = candidate.weight ?? 1;
  return Number.isFinite(weight) && weight > 0 ? weight : 0;
}
