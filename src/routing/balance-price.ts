/**
 * The token price: what one extra request (a hedge, a fallback) costs in the router's
 * objective J, in ms per request (docs/routing.md, "The hedge budget"). It is the larger of
 * two prices read from the route's hedge ledger (hedge-ledger.ts), whose balance B is in tokens:
 *
 *   drain price    V x drain(B),  drain(B) = clamp(1 - B / PRICE_DRAIN_TOKENS, 0, 1)
 *   balance price  p* x 2^((BALANCE_TARGET_TOKENS - B) / BALANCE_SCALE_TOKENS)
 *
 * V is the most one hedge saves on the route now (hedge-delay.ts hedgeValueMs). p* is the least
 * price at which the healthy candidate with the lowest J0 + p x e expects no more than
 * AFFORDABLE_SHARE_FACTOR x maxShare extra requests per call (J0: its objective before the
 * price, ms; e = f + (1 - f) x P(X > d): its failure share plus its hedge share): the price at
 * which the route's first choice stops spending faster than the budget earns. Scaled by the
 * balance, it doubles for every BALANCE_SCALE_TOKENS the ledger is below its target and halves
 * for every BALANCE_SCALE_TOKENS above: a ledger that saved tokens lets a provider with a
 * frequent tail go first, one that ran low moves the calls to a steadier provider before it
 * is empty.
 */

/** The drain price reaches V when the balance is 0 and is 0 from this many tokens up: 10. */
export const PRICE_DRAIN_TOKENS = 10;
/** The balance at which the balance price is p* itself: 5 tokens. */
export const BALANCE_TARGET_TOKENS = 5;
/** Tokens per doubling (below the target) or halving (above) of the balance price: 5. */
export const BALANCE_SCALE_TOKENS = 5;
/** A candidate is affordable when it expects at most this x maxShare extra requests a call: 1.5. */
export const AFFORDABLE_SHARE_FACTOR = 1.5;

/** Tolerance of the comparisons below (ms and shares): rounding, not a real difference. */
const EPS = 1e-9;

/**
 * How drained the budget is at `tokens` against `full` tokens (default PRICE_DRAIN_TOKENS), in
 * [0, 1]: 0 at `full` or more, 1 at 0 or below (paying fallbacks back). The drain price is this
 * times the most a hedge saves on the route now; the tail penalty grows with it too
 * (hedge-delay.ts drainedTailPenalty).
 */
export function budgetDrain(tokens: number, full = PRICE_DRAIN_TOKENS): number {
  return Math.min(1, Math.max(0, 1 - tokens / full));
}

/** One candidate as {@link balancePriceMs} reads it. */
export interface PricedLine {
  /** J0: its objective without the token price, ms; undefined when never measured (ignored). */
  objectiveMs: number | undefined;
  /** e: its expected extra requests per call (failure share + hedge share), in [0, 1]. */
  extraShare: number;
  /** False when its breaker refuses calls (ignored). */
  healthy: boolean;
}

/**
 * p*, in ms per extra request (see the file comment): the least p >= 0 at which the healthy
 * measured candidate with the lowest J0 + p x e (ties to the lower e) has e <= `affordableShare`.
 * As p grows the cheapest candidate's e can only fall, so p* is the largest, over the
 * unaffordable candidates u, of the least price at which some affordable a is cheaper:
 *
 *   p* = max over u of min over a of max(0, (J0_a - J0_u) / (e_u - e_a))
 *
 * 0 when the cheapest at p = 0 is affordable or no candidate is measured. When none is
 * affordable, the largest price at which two candidates' lines cross (beyond it the one with
 * the fewest extra requests is the cheapest), 0 when none cross above 0. A loop over pairs of
 * candidates, no allocation.
 */
export function balancePriceMs(lines: ArrayLike<PricedLine>, affordableShare: number): number {
  let price = 0;
  let anyAffordable = false;
  for (let u = 0; u < lines.length; u++) {
    const lu = lines[u]!;
    if (!lu.healthy || lu.objectiveMs === undefined) continue;
    if (lu.extraShare <= affordableShare + EPS) {
      anyAffordable = true;
      continue;
    }
    // The least price at which an affordable candidate is cheaper than u.
    let beaten = Number.POSITIVE_INFINITY;
    for (let a = 0; a < lines.length; a++) {
      const la = lines[a]!;
      if (!la.healthy || la.objectiveMs === undefined || la.extraShare > affordableShare + EPS) continue;
      beaten = Math.min(
        beaten,
        Math.max(0, (la.objectiveMs - lu.objectiveMs) / (lu.extraShare - la.extraShare)),
      );
    }
    if (beaten !== Number.POSITIVE_INFINITY) price = Math.max(price, beaten);
  }
  if (anyAffordable) return price;
  // None affordable: the last crossing of two candidates' lines.
  for (let i = 0; i < lines.length; i++) {
    const li = lines[i]!;
    if (!li.healthy || li.objectiveMs === undefined) continue;
    for (let j = 0; j < lines.length; j++) {
      const lj = lines[j]!;
      if (!lj.healthy || lj.objectiveMs === undefined || li.extraShare <= lj.extraShare) continue;
      const p = (lj.objectiveMs - li.objectiveMs) / (li.extraShare - lj.extraShare);
      if (p > price) price = p;
    }
  }
  return price;
}

/**
 * The balance price's scale at a ledger balance of `tokens`:
 * 2^((BALANCE_TARGET_TOKENS - tokens) / BALANCE_SCALE_TOKENS) (1 at the target, 2 five tokens
 * below it, 1/2 five above).
 */
export function balanceScale(tokens: number): number {
  return 2 ** ((BALANCE_TARGET_TOKENS - tokens) / BALANCE_SCALE_TOKENS);
}
