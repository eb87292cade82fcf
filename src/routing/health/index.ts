export { CircuitBreaker } from './circuit-breaker.js';
export { grownCooldownMs, retryAfterCooldownMs } from './cooldown.js';
export { breakerFailureOf, type FailureContext } from './failure-of-error.js';
export { HealthRegistry, type HealthSnapshotEntry, type HealthStateChange } from './health-registry.js';
export {
  BREAKER_DEFAULTS,
  type CircuitBreakerOptions,
  type ResolvedBreakerOptions,
  resolveBreakerOptions,
} from './options.js';
export { OutcomeWindow } from './outcome-window.js';
export type {
  BreakerFailure,
  BreakerFailureKind,
  BreakerListener,
  BreakerReason,
  BreakerSnapshot,
  BreakerState,
  BreakerStateChange,
} from './types.js';
