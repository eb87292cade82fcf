import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { WARM_UP_HEDGE_RATIO, warmUpHedgeMs } from '../../src/routing/warm-up-hedge.js';
import { chatPlanner } from './planner-harness.js';

const first = { coldStart: true, firstCall: true } as const;

/**
 * The planner of a chat route [steady, fast] with `hedge` as given: steady measured by 20 warm
 * calls of about 120 ms, fast only by its first call, 55 ms at t = 900 (so fast, waiting for
 * its warm re-try, goes first).
 */
function setup(hedge: { after: 'auto' | 'p95' | number; maxShare: number }) {
  const config = parseConfig({
    providers: {
      steady: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1', chat: { models: { m: 'x' } } },
      fast: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:2', chat: { models: { m: 'x' } } },
    },
    routes: { chat: { providers: ['steady', 'fast'], hedge } },
  });
  let now = 1_000;
  const tracker = new LatencyTracker();
  const steady = LatencyTracker.key('steady', 'chat', 'x');
  const fast = LatencyTracker.key('fast', 'chat', 'x');
  tracker.recordSuccess(steady, 130, 0, first);
  for (let i = 1; i <= 20; i++) tracker.recordSuccess(steady, 115 + (i % 3) * 5, i * 40);
  tracker.recordSuccess(fast, 55, 900, first);
  const plan = chatPlanner(config, tracker, () => now, ['steady', 'fast']);
  return { plan, tracker, fast, advance: (ms: number) => (now += ms) };
}

describe('warmUpHedgeMs', () => {
  it('is twice the first call TTFC; nothing without a bound, after a failure, or for a bound of 0', () => {
    expect(WARM_UP_HEDGE_RATIO).toBe(2);
    expect(warmUpHedgeMs({ ms: 55, failed: false })).toBe(110);
    expect(warmUpHedgeMs(undefined)).toBeUndefined();
    expect(warmUpHedgeMs({ ms: 55, failed: true })).toBeUndefined();
    expect(warmUpHedgeMs({ ms: 0, failed: false })).toBeUndefined();
  });
});

describe('the planner hedges a warm-up call at twice the first call', () => {
  it('auto: the provider measured only by its first call goes first with a hedge at 110 ms to the steady one', () => {
    const { plan } = setup({ after: 'auto', maxShare: 0.1 });
    const p = plan();
    expect(p.order).toEqual(['fast', 'steady']);
    expect(p.hedgeAfterMs[0]).toBe(110);
  });

  it('auto: once a warm sample replaced the bound, the warm-up hedge is gone (auto needs 2 warm samples)', () => {
    const { plan, tracker, fast, advance } = setup({ after: 'auto', maxShare: 0.1 });
    advance(100);
    tracker.recordSuccess(fast, 52, 1_100);
    const p = plan();
    expect(p.order).toEqual(['fast', 'steady']);
    expect(p.hedgeAfterMs[0]).toBeUndefined();
  });

  it('auto: no warm-up hedge after the provider failed since its first call', () => {
    const { plan, tracker, fast } = setup({ after: 'auto', maxShare: 0.1 });
    tracker.recordFailure(fast, 1_000);
    const p = plan();
    expect(p.order).toEqual(['steady', 'fast']);
    expect(p.hedgeAfterMs[1]).toBeUndefined();
  });

  it('auto: no warm-up hedge while the ledger holds less than a token', () => {
    const { plan } = setup({ after: 'auto', maxShare: 0.1 });
    const ledger = plan().ledger;
    while (ledger.tokens() >= 1) ledger.charge();
    const p = plan();
    expect(p.order).toEqual(['fast', 'steady']);
    expect(p.hedgeAfterMs[0]).toBeUndefined();
  });

  it("a caller's hedgeAfterMs and the other hedge settings are left as they are", () => {
    expect(setup({ after: 'auto', maxShare: 0.1 }).plan({ hedgeAfterMs: 300 }).hedgeAfterMs[0]).toBe(300);
    expect(setup({ after: 'p95', maxShare: 0.1 }).plan().hedgeAfterMs[0]).toBeUndefined();
    expect(setup({ after: 80, maxShare: 0.1 }).plan().hedgeAfterMs[0]).toBe(80);
  });
});
