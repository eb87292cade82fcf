import { createHedgeBudget, type HedgeBudget } from './hedge-delay.js';

/** Hedge budgets per route: token buckets that start full and earn `maxShare` of a hedge per call. */
export class HedgeBudgets {
  readonly #budgets = new Map<string, HedgeBudget>();

  /** The budget of `route`, created full on first use. */
  of(route: string, maxShare: number): HedgeBudget {
    let b = this.#budgets.get(route);
    if (!b) {
      b = createHedgeBudget(maxShare);
      this.#budgets.set(route, b);
    }
    return b;
  }

  /** The budget of `route`, after it earned `share` of a hedge for the call being planned. */
  earn(route: string, share: number): HedgeBudget {
    const b = this.of(route, share);
    b.earn(share);
    return b;
  }
}
