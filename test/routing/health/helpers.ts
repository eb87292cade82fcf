import { CircuitBreaker } from '../../../src/routing/health/circuit-breaker.js';
import type { CircuitBreakerOptions } from '../../../src/routing/health/options.js';
import type { BreakerStateChange } from '../../../src/routing/health/types.js';

/** A clock whose time moves only when the test sets `t` (ms). */
export class StepClock {
  t = 0;
  now(): number {
    return this.t;
  }
}

/**
 * A breaker on a {@link StepClock} with a fixed random source (0.5: jitter factor exactly 1
 * unless the test passes its own), and the list of its state changes.
 */
export function setup(options: CircuitBreakerOptions = {}): {
  clock: StepClock;
  breaker: CircuitBreaker;
  changes: BreakerStateChange[];
} {
  const clock = new StepClock();
  const breaker = new CircuitBreaker({ clock, random: () => 0.5, ...options });
  const changes: BreakerStateChange[] = [];
  breaker.onStateChange((change) => changes.push(change));
  return { clock, breaker, changes };
}

/** Records `n` plain failures. */
export function fail(breaker: CircuitBreaker, n: number): void {
  for (let i = 0; i < n; i++) breaker.recordFailure();
}
