import type { HedgeSetting } from '../config/route.js';
import type { HedgeBudget } from './attempt-loop.js';
import type { LatencySnapshot } from './latency-tracker.js';

/** The hedge delay of a candidate from its measured tail, in ms; undefined before 5 samples. */
export function hedgeDelayMs(
  hedge: HedgeSetting,
  stats: Pick<LatencySnapshot, 'samples' | 'p95Ms' | 'p99Ms'>,
): number | undefined {
  if (typeof hedge.after === 'number') return hedge.after;
  if (stats.samples < 5) return undefined;
  return hedge.after === 'p95' ? stats.p95Ms : stats.p99Ms;
}

/** Hedge budgets per route: a token bucket that earns `maxShare` of a hedge per call. */
export class HedgeBudgets {
  readonly #budgets = new Map<string, HedgeBudget & { earn(share: number): void }>();

  /** The budget of `route`, after it earned `share` of a hedge for the call being planned. */
  earn(route: string, share: number): HedgeBudget {
    let b = this.#budgets.get(route);
    if (!b) {
      let tokens = 1;
      b = {
        earn: (share) => {
          tokens = Math.min(10, tokens + share);
        },
        take: () => {
          if (tokens < 1) return false;
          tokens -= 1;
          return true;
        },
      };
      this.#budgets.set(route, b);
    }
    b.earn(share);
    return b;
  }
}
