/**
 * The hedge of a provider's warm-up call (docs/routing.md, "Hedged requests"): a provider
 * measured only by its first call has no learned distribution, so `auto` plans no hedge for it
 * (it needs 2 warm samples); but that first call paid for connection setup and code loaded on
 * first use, so its TTFC is an upper bound of a warm call's, and a warm call still silent at
 * WARM_UP_HEDGE_RATIO x that bound is a stall, not the provider's usual time.
 */

/**
 * A warm-up call is hedged after this many times the provider's first-call TTFC: 2. A warm
 * call's TTFC is at most the first call's in a provider without setup costs plus its jitter
 * (about +-10% per call in the benchmark's providers), so at 2 x the bound the hedge goes to
 * a stall, hardly ever to a call about to answer (1.5 hedged the same stalls in the benchmark;
 * 2 also lets a call about to answer at 1.5 x win on its own).
 */
export const WARM_UP_HEDGE_RATIO = 2;

/**
 * The hedge delay of a first choice in its warm-up, in ms: WARM_UP_HEDGE_RATIO x `coldBound.ms`
 * (the TTFC of the provider's first call, LatencyTracker.coldBound); undefined when there is no
 * bound (never tried, or a warm sample has replaced it) or its latest outcome is a failure (a
 * failure moves no latency bound). Only for `auto` hedges whose plan gave none; the caller
 * checks the budget holds a token.
 */
export function warmUpHedgeMs(coldBound: { ms: number; failed: boolean } | undefined): number | undefined {
  if (!coldBound || coldBound.failed || !(coldBound.ms > 0)) return undefined;
  return WARM_UP_HEDGE_RATIO * coldBound.ms;
}
