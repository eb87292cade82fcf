/**
 * How a route orders its candidate providers:
 * - `latency`: power of two choices by peak-EWMA TTFC x (in-flight + 1), with bounded probing;
 * - `priority`: the listed order (what fixed fallback lists do);
 * - `weighted`: a random draw in proportion to the route's `weights`;
 * - `cost`: the cheapest provider whose score is within `costLatencyFactor` of the best.
 */
export type Strategy = 'latency' | 'priority' | 'weighted' | 'cost';

/** A candidate as the selection sees it: its place in the route's list and its measurements. */
export interface ScoredCandidate {
  /** Index in the route's `providers` list. */
  index: number;
  /** Peak-EWMA of time to first chunk in ms; undefined when never measured. */
  ewmaMs: number | undefined;
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
}

/**
 * The load-aware score of a measured candidate: peak-EWMA TTFC x (in-flight + 1), in ms.
 * Unmeasured candidates score Infinity (they are reached through probing instead).
 */
export function score(c: ScoredCandidate): number {
  return c.ewmaMs === undefined ? Number.POSITIVE_INFINITY : c.ewmaMs * ((c.inFlight ?? 0) + 1);
}

/**
 * Orders candidates for one call; returns indexes into the route's list, in the order to try.
 * Candidates whose breaker refuses calls go last (in listed order), so a call still has
 * somewhere to go when every provider is cooling down.
 *
 * `latency`: first one probe: a candidate never tried, or not tried for `probeAfterMs`, that has
 * no attempt running (so concurrent calls do not burst a new provider), in listed order; then
 * power of two choices: two distinct healthy candidates drawn at random, the lower score first;
 * then the rest by score, lowest first (never measured last); ties keep the listed order.
 */
export function orderCandidates(candidates: readonly ScoredCandidate[], options: SelectOptions): number[] {
  const healthy = candidates.filter((c) => c.healthy !== false);
  const resting = candidates.filter((c) => c.healthy === false);
  const random = options.random ?? Math.random;
  const byScore = (a: ScoredCandidate, b: ScoredCandidate) => score(a) - score(b) || a.index - b.index;
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
      const best = sorted[0] ? score(sorted[0]) : Number.POSITIVE_INFINITY;
      const bound = best * (options.costLatencyFactor ?? 1.5);
      const fastEnough = sorted.filter((c) => score(c) <= bound);
      const cheapest = [...fastEnough].sort((a, b) => (a.cost ?? 0) - (b.cost ?? 0) || byScore(a, b))[0];
      ordered = cheapest ? [cheapest, ...sorted.filter((c) => c !== cheapest)] : sorted;
      break;
    }
    case 'latency': {
      const probeAfter = options.probeAfterMs ?? 30_000;
      const probe = healthy.find(
        (c) =>
          (c.inFlight ?? 0) === 0 &&
          (c.lastTriedAt === undefined || options.now - c.lastTriedAt > probeAfter),
      );
      const rest = healthy.filter((c) => c !== probe).sort(byScore);
      const measured = rest.filter((c) => c.ewmaMs !== undefined);
      if (measured.length > 2) {
        const i = Math.floor(random() * measured.length);
        let j = Math.floor(random() * (measured.length - 1));
        if (j >= i) j++;
        const pair = [measured[i]!, measured[j]!].sort(byScore);
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

/** A weighted random order: each next pick drawn in proportion to the remaining weights. */
function weightedOrder(candidates: readonly ScoredCandidate[], random: () => number): ScoredCandidate[] {
  const pool = [...candidates];
  const out: ScoredCandidate[] = [];
  while (pool.length) {
    const total = pool.reduce((n, c) => n + Math.max(0, c.weight ?? 1), 0);
    let draw = random() * total;
    let pick = pool.length - 1;
    for (let i = 0; i < pool.length; i++) {
      draw -= Math.max(0, pool[i]!.weight ?? 1);
      if (draw < 0) {
        pick = i;
        break;
      }
    }
    out.push(pool.splice(pick, 1)[0]!);
  }
  return out;
}
