import { createHedgeLedger, type HedgeLedger } from './hedge-ledger.js';

/** Hedge budgets per route: one ledger each (hedge-ledger.ts), earning `maxShare` of a token per call. */
export class HedgeBudgets {
  readonly #budgets = new Map<string, HedgeLedger>();

  /** The ledger of `route`, created on first use. */
  of(route: string, maxShare: number): HedgeLedger {
    let b = this.#budgets.get(route);
    if (!b) {
      b = createHedgeLedger(maxShare);
      this.#budgets.set(route, b);
    }
    return b;
  }

  /** The budget of `route`, after it earned `share` of a hedge for the call being planned. */
  earn(route: string, share: number): HedgeLedger {
    const b = this.of(route, share);
    b.earn(share);
    return b;
  }
}
