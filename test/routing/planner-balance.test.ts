import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { chatPlanner } from './planner-harness.js';

/** Deterministic jitter in [0.9, 1.1]. */
const jitter = (i: number) => 1 + 0.1 * Math.sin(i * 12.9898);

/**
 * The planner of a chat route [fast, steady] with `hedge: { after: 'auto', maxShare: 0.1 }`:
 * fast answers in about 50 ms and stalls for 600 ms on one call in five (twice the budget),
 * steady answers in about 120 ms; each measured by 400 calls, one every 40 ms.
 */
function setup() {
  const config = parseConfig({
    providers: {
      fast: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1', chat: { models: { m: 'x' } } },
      steady: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:2', chat: { models: { m: 'x' } } },
    },
    routes: { chat: { providers: ['fast', 'steady'], hedge: { after: 'auto', maxShare: 0.1 } } },
  });
  const now = 400 * 40;
  const tracker = new LatencyTracker();
  const fast = LatencyTracker.key('fast', 'chat', 'x');
  const steady = LatencyTracker.key('steady', 'chat', 'x');
  for (let i = 1; i <= 400; i++) {
    tracker.recordSuccess(fast, i % 5 === 0 ? 600 * jitter(i) : 50 * jitter(i), i * 40);
    tracker.recordSuccess(steady, 120 * jitter(i), i * 40);
  }
  const plan = chatPlanner(config, tracker, () => now, ['fast', 'steady']);
  return { plan };
}

describe('the planner with the hedge ledger and the balance price', () => {
  it('a full ledger keeps the fast provider first; a drained one sends calls to the steady one until it has saved again', () => {
    const { plan } = setup();
    // 50 quiet calls, then 950 earning 0.1 each: the ledger is full (100 tokens).
    let last = plan();
    for (let i = 1; i < 1000; i++) last = plan();
    expect(last.ledger.tokens()).toBeCloseTo(100, 9);
    expect(plan().order).toEqual(['fast', 'steady']);
    // Fallbacks and hedges spent it down to 2 tokens: still a hedge in hand, but the balance
    // price (2^(3/5) x p*) and the drain price put steady first.
    const ledger = plan().ledger;
    while (ledger.tokens() > 2 + 1e-9) ledger.charge();
    expect(ledger.tokens()).toBeCloseTo(2, 9);
    const firsts: string[] = [];
    for (let i = 0; i < 100; i++) firsts.push(plan().order[0]!);
    // The ledger earns 0.1 a call: steady goes first for a share of the calls, then fast again.
    const steadyCalls = firsts.indexOf('fast');
    expect(firsts[0]).toBe('steady');
    // 66 calls: fast is first again at 8.6 tokens, where the two prices together no longer
    // outweigh what it saves (pinned: the formula of balance-price.ts on these samples).
    expect(steadyCalls).toBe(66);
    expect(firsts.slice(steadyCalls).every((p) => p === 'fast')).toBe(true);
    expect(firsts.slice(0, steadyCalls).every((p) => p === 'steady')).toBe(true);
  });
});
