import { describe, expect, it } from 'vitest';
import { createHedgeLedger, LEDGER_CAPACITY, ledgerStart } from '../../src/routing/hedge-ledger.js';

describe('hedge ledger', () => {
  it('starts with 5 tokens at maxShare 0.1 (2 at least) and earns nothing over the first 50 calls', () => {
    expect([ledgerStart(0.1), ledgerStart(0.02), ledgerStart(0.5)]).toEqual([5, 2, 25]);
    const ledger = createHedgeLedger(0.1);
    expect(ledger.tokens()).toBe(5);
    for (let i = 0; i < 50; i++) ledger.earn(0.1);
    expect(ledger.tokens()).toBe(5);
    ledger.earn(0.1);
    expect(ledger.tokens()).toBeCloseTo(5.1, 12);
    for (let i = 0; i < 9; i++) ledger.earn(0.1);
    expect(ledger.tokens()).toBeCloseTo(6, 12);
  });

  it('the quiet calls are the start over maxShare: 100 calls at maxShare 0.02', () => {
    const ledger = createHedgeLedger(0.02);
    for (let i = 0; i < 100; i++) ledger.earn(0.02);
    expect(ledger.tokens()).toBe(2);
    ledger.earn(0.02);
    expect(ledger.tokens()).toBeCloseTo(2.02, 12);
  });

  it('spends one token a hedge and refuses one with less than a token left', () => {
    const ledger = createHedgeLedger(0.1);
    const taken = Array.from({ length: 6 }, () => ledger.take());
    expect(taken).toEqual([true, true, true, true, true, false]);
    expect([ledger.tokens(), ledger.available()]).toEqual([0, false]);
    for (let i = 0; i < 50; i++) ledger.earn(0.1);
    expect(ledger.available()).toBe(false);
    for (let i = 0; i < 10; i++) ledger.earn(0.1);
    expect([ledger.available(), ledger.take(), ledger.take()]).toEqual([true, true, false]);
  });

  it('saves up to 100 tokens', () => {
    const ledger = createHedgeLedger(0.1);
    for (let i = 0; i < 50 + 950; i++) ledger.earn(0.1);
    expect(ledger.tokens()).toBeCloseTo(100, 9);
    for (let i = 0; i < 100; i++) ledger.earn(0.1);
    expect([ledger.tokens(), ledger.capacity(), LEDGER_CAPACITY]).toEqual([100, 100, 100]);
  });

  it('charges a fallback even from an empty ledger, down to -100; hedges wait until it is paid back', () => {
    const ledger = createHedgeLedger(0.1);
    for (let i = 0; i < 7; i++) ledger.charge();
    expect(ledger.tokens()).toBe(-2);
    expect(ledger.take()).toBe(false);
    for (let i = 0; i < 200; i++) ledger.charge();
    expect(ledger.tokens()).toBe(-100);
    const paid = createHedgeLedger(0.1);
    for (let i = 0; i < 7; i++) paid.charge();
    // 50 quiet calls, then 29 earnings leave it at 0.9: no hedge; the 30th makes a token.
    for (let i = 0; i < 50 + 29; i++) paid.earn(0.1);
    expect(paid.available()).toBe(false);
    paid.earn(0.1);
    expect([paid.available(), paid.take(), paid.take()]).toEqual([true, true, false]);
  });

  it('over n >= 50 calls a route that hedges whenever it can takes exactly maxShare x n hedges', () => {
    for (const n of [50, 51, 600, 2000]) {
      const ledger = createHedgeLedger(0.1);
      let hedges = 0;
      for (let i = 0; i < n; i++) {
        ledger.earn(0.1);
        while (ledger.take()) hedges++;
      }
      expect([n, hedges]).toEqual([n, Math.floor(0.1 * n + 1e-9)]);
    }
  });
});
