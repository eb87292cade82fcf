/**
 * A route's hedge ledger (docs/routing.md, "The hedge budget"): the tokens its extra requests
 * (hedges and fallbacks) are paid from, one token per extra request. It starts with
 * LEDGER_START_CALLS x maxShare tokens (at least LEDGER_MIN_START), earns nothing over the
 * route's first start / maxShare calls (the starting tokens are those calls' share), then
 * earns maxShare of a token per call and saves up to LEDGER_CAPACITY tokens. So over n calls
 * (n >= start / maxShare) the hedges are at most maxShare x n, and a cluster of tail calls can
 * spend what quieter calls saved. A fallback always goes out (the call must be served): it
 * takes its token even from an empty ledger, down to -LEDGER_CAPACITY, and hedges wait until
 * it is paid back. What a token costs in the router's objective is balance-price.ts's.
 */

/** The most tokens a ledger saves: 100 (the share of 1,000 calls at maxShare 0.1). */
export const LEDGER_CAPACITY = 100;
/** The starting tokens are the share of this many calls: 50 x maxShare (5 at maxShare 0.1). */
export const LEDGER_START_CALLS = 50;
/** The fewest starting tokens, whatever maxShare: 2. */
export const LEDGER_MIN_START = 2;

/** A route's budget of extra requests: see the file comment. Levels in tokens (one per request). */
export interface HedgeLedger {
  /** Takes one token for a hedge; false when less than one is left (then no hedge). */
  take(): boolean;
  /** Counts one call and adds `share` of a token (nothing over the first calls; see the file comment). */
  earn(share: number): void;
  /** True when a whole token is left: a call planned now may count on a hedge. */
  available(): boolean;
  /** The balance, tokens: at most LEDGER_CAPACITY; below 0 while fallbacks are paid back. */
  tokens(): number;
  /** The most tokens it holds: LEDGER_CAPACITY. */
  capacity(): number;
  /**
   * Charges a fallback (a request beyond the call's first that was not a hedge): one token,
   * even when none is left, down to -LEDGER_CAPACITY.
   */
  charge(): void;
}

/** The tokens a ledger starts with at `maxShare`: max(LEDGER_MIN_START, LEDGER_START_CALLS x maxShare). */
export function ledgerStart(maxShare: number): number {
  return Math.max(LEDGER_MIN_START, LEDGER_START_CALLS * maxShare);
}

/**
 * A ledger for a route with `maxShare` (a share of calls in (0, 1]): starts with
 * {@link ledgerStart}(maxShare) tokens, earns nothing over the first round(start / maxShare)
 * calls (50 at maxShare 0.1), then what {@link HedgeLedger.earn} is given per call.
 */
export function createHedgeLedger(maxShare: number): HedgeLedger {
  const start = ledgerStart(maxShare);
  const quietCalls = Math.round(start / maxShare);
  let tokens = start;
  let calls = 0;
  return {
    earn: (share) => {
      calls++;
      if (calls <= quietCalls) return;
      tokens = Math.min(LEDGER_CAPACITY, tokens + share);
    },
    // 1e-9: ten earnings of 0.1 make a whole token despite rounding.
    available: () => tokens >= 1 - 1e-9,
    tokens: () => tokens,
    capacity: () => LEDGER_CAPACITY,
    take: () => {
      if (tokens < 1 - 1e-9) return false;
      tokens -= 1;
      return true;
    },
    charge: () => {
      tokens = Math.max(-LEDGER_CAPACITY, tokens - 1);
    },
  };
}
