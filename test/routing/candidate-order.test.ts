import { describe, expect, it } from 'vitest';
import { CandidateOrder } from '../../src/routing/candidate-order.js';

/** Candidates `n` of them, those in `open` with an open breaker; the call's position and running set are the test's. */
function orderOf(n: number, open: readonly number[] = []) {
  const state = { at: 0, running: new Set<number>() };
  const candidates = Array.from({ length: n }, (_, i) => ({
    health: {
      allows: () => !open.includes(i),
      tryAcquire: () => !open.includes(i),
      recordSuccess() {},
      recordFailure() {},
      release() {},
    },
  }));
  const order = new CandidateOrder(candidates, {
    position: () => state.at,
    isRunning: (i) => state.running.has(i),
  });
  return { order, state };
}

describe("CandidateOrder: the call's own order, each failed candidate moved to its back", () => {
  it('before a re-plan: the planned order, each candidate once', () => {
    const { order } = orderOf(3);
    expect([order.take(), order.take(), order.take(), order.take()]).toEqual([0, 1, 2, undefined]);
  });

  it('after a failure after output: the next one that has not failed keeps the call; the failed one comes back only after the others failed', () => {
    const { order, state } = orderOf(3);
    expect(order.take()).toBe(0);
    state.at = 2;
    order.failed(0);
    order.replan();
    expect(order.take()).toBe(1);
    // Later positions: 1 is still first (0 failed in this call), while 1 runs, 2 is next.
    state.at = 5;
    expect(order.peek()).toBe(1);
    state.running.add(1);
    expect(order.peek()).toBe(2);
    state.running.delete(1);
    order.failed(1);
    // The call's order is now 2, 0, 1.
    expect(order.take()).toBe(2);
    order.failed(2);
    // 0 failed at 2, not at 5: it is asked again; 1 and 2 failed here.
    expect(order.take()).toBe(0);
    order.failed(0);
    expect(order.take()).toBeUndefined();
  });

  it('a failure before output moves the candidate back too; an open breaker still rules one out', () => {
    const { order, state } = orderOf(3, [1]);
    expect(order.take()).toBe(0);
    order.failed(0);
    expect(order.take()).toBe(1);
    // Before a re-plan the planned order is taken as it is (the attempt itself asks the breaker).
    order.failed(1);
    expect(order.take()).toBe(2);
    state.at = 1;
    order.failed(2);
    order.replan();
    // Order 0, 1, 2: 0 failed at position 0, 1's breaker is open, 2 failed here.
    expect(order.take()).toBe(0);
  });
});
