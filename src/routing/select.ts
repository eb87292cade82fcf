/** How a route orders its candidate providers. */
export type Strategy = 'latency' | 'priority';

/** A candidate as the selection sees it: its place in the route's list and its measurements. */
export interface ScoredCandidate {
  /** Index in the route's `providers` list. */
  index: number;
  /** EWMA of time to first chunk in ms; undefined when never measured. */
  ewmaMs: number | undefined;
  /** Monotonic time (ms) of its last attempt's outcome (success or failure); undefined when never tried. */
  lastTriedAt: number | undefined;
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
}

/**
 * Orders candidates for one call.
 * - `priority`: the route's listed order.
 * - `latency`: first one candidate never tried or not tried for `probeAfterMs` (one probe per
 *   call, in listed order, so a new provider is learned but not given a burst, and a failing one
 *   is retried only once per period), then the rest by EWMA of TTFC, lowest first (never
 *   measured last); ties keep the listed order.
 * Returns the indexes into the route's list, in the order to try them.
 */
export function orderCandidates(candidates: readonly ScoredCandidate[], options: SelectOptions): number[] {
  if (options.strategy === 'priority') return candidates.map((c) => c.index);
  const probeAfter = options.probeAfterMs ?? 30_000;
  const stale = (c: ScoredCandidate) =>
    c.lastTriedAt === undefined || options.now - c.lastTriedAt > probeAfter;
  const probe = candidates.find(stale);
  const rest = candidates
    .filter((c) => c !== probe)
    .sort(
      (a, b) =>
        (a.ewmaMs ?? Number.POSITIVE_INFINITY) - (b.ewmaMs ?? Number.POSITIVE_INFINITY) || a.index - b.index,
    );
  return (probe ? [probe, ...rest] : rest).map((c) => c.index);
}
