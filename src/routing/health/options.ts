import { ConfigError, type ConfigIssue } from '../../errors/config-error.js';
import { MAX_RETRY_AFTER_MS } from '../../errors/provider-error.js';
import { type Clock, systemClock } from '../../internal/clock.js';

/**
 * Options of a {@link CircuitBreaker} (and, shared by all its breakers, of a
 * {@link HealthRegistry}). Every field is optional; the default is given with each. Times in ms.
 */
export interface CircuitBreakerOptions {
  /** Time source; only `now()` (monotonic ms) is used, no timer is ever set. Default: the system clock (`performance.now()`). */
  clock?: Pick<Clock, 'now'>;
  /**
   * Source of uniform random numbers in [0, 1) for the cooldown jitter. Default: `Math.random`.
   * Tests pass a fixed function so cooldowns are exact.
   */
  random?: () => number;
  /** Consecutive counted failures that open a closed breaker. Default: 5. Integer >= 1. */
  failureThreshold?: number;
  /**
   * Error rate of the recent window that opens a closed breaker, in (0, 1]: it opens when, at a
   * counted failure, failures / calls >= this and calls >= `minCalls`. Default: 0.5.
   */
  errorRateThreshold?: number;
  /** Counted calls the window must hold before the error rate can open the breaker. Default: 10. */
  minCalls?: number;
  /** Most recent counted calls kept in the error-rate window. Default: 20. Must be >= `minCalls`. */
  windowSize?: number;
  /** Age after which a call drops out of the error-rate window, in ms. Default: 30 000 (30 s). */
  windowMs?: number;
  /** Cooldown of the first opening, in ms (before jitter). Default: 1 000 (1 s). */
  baseCooldownMs?: number;
  /** Factor by which the cooldown grows with each further opening without a successful probe. Default: 2. */
  cooldownMultiplier?: number;
  /**
   * Cap of the grown cooldown, in ms, before jitter (the jittered value may be up to `jitter`
   * above it, so that many breakers at the cap still spread out). Default: 60 000 (60 s).
   */
  maxCooldownMs?: number;
  /**
   * Jitter of the grown cooldown, as a share: the cooldown is multiplied by a factor drawn
   * uniformly from [1 - jitter, 1 + jitter). Default: 0.2 (+-20%). In [0, 1).
   */
  jitter?: number;
  /**
   * Whether a failure carrying a Retry-After opens the breaker at once for at least that long.
   * Default: true. When false, Retry-After is still honoured as a minimum when the breaker opens
   * for another reason.
   */
  respectRetryAfter?: boolean;
  /** Cap of a cooldown set by Retry-After, in ms (a provider cannot park itself for a day). Default: 600 000 (10 min). */
  maxRetryAfterMs?: number;
  /**
   * Cooldown after an auth/misconfiguration failure (401, 403, WebSocket 1008 with an auth
   * reason: `ProviderError.isAuthError`), in ms, not jittered. Default: 300 000 (5 min).
   */
  authCooldownMs?: number;
  /**
   * How long a taken half-open probe slot may stay unsettled before it is considered lost and a
   * new probe is allowed, in ms (guards against a caller that never reports). A late outcome of
   * the lost probe still counts. Default: 30 000 (30 s).
   */
  probeTimeoutMs?: number;
  /** Called with the error when a state-change listener throws; the other listeners still run. Default: the error is dropped. */
  onListenerError?: (error: unknown) => void;
}

/** {@link CircuitBreakerOptions} with every default filled in. */
export interface ResolvedBreakerOptions {
  clock: Pick<Clock, 'now'>;
  random: () => number;
  failureThreshold: number;
  errorRateThreshold: number;
  minCalls: number;
  windowSize: number;
  windowMs: number;
  baseCooldownMs: number;
  cooldownMultiplier: number;
  maxCooldownMs: number;
  jitter: number;
  respectRetryAfter: boolean;
  maxRetryAfterMs: number;
  authCooldownMs: number;
  probeTimeoutMs: number;
  onListenerError: (error: unknown) => void;
}

/** The default of every numeric and boolean breaker option (see {@link CircuitBreakerOptions}). */
export const BREAKER_DEFAULTS = Object.freeze({
  failureThreshold: 5,
  errorRateThreshold: 0.5,
  minCalls: 10,
  windowSize: 20,
  windowMs: 30_000,
  baseCooldownMs: 1_000,
  cooldownMultiplier: 2,
  maxCooldownMs: 60_000,
  jitter: 0.2,
  respectRetryAfter: true,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
  authCooldownMs: 300_000,
  probeTimeoutMs: 30_000,
});

const ignore = (): void => {};

/** The objects {@link resolveBreakerOptions} returned: resolved and checked once, shared as they are. */
const resolvedOptions = new WeakSet<object>();

/**
 * Fills in the defaults of `options` and checks them. An object this function returned is
 * returned as it is (a registry resolves once and shares it with every breaker it creates: no
 * new options object, with its shape to learn, at a breaker's creation during a call).
 * @throws ConfigError listing every invalid option (path = the option's name), e.g. a
 *   `failureThreshold` below 1, a `jitter` outside [0, 1), or a `windowSize` below `minCalls`.
 */
export function resolveBreakerOptions(options: CircuitBreakerOptions = {}): ResolvedBreakerOptions {
  if (resolvedOptions.has(options)) return options as ResolvedBreakerOptions;
  const resolved: ResolvedBreakerOptions = {
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    failureThreshold: options.failureThreshold ?? BREAKER_DEFAULTS.failureThreshold,
    errorRateThreshold: options.errorRateThreshold ?? BREAKER_DEFAULTS.errorRateThreshold,
    minCalls: options.minCalls ?? BREAKER_DEFAULTS.minCalls,
    windowSize: options.windowSize ?? BREAKER_DEFAULTS.windowSize,
    windowMs: options.windowMs ?? BREAKER_DEFAULTS.windowMs,
    baseCooldownMs: options.baseCooldownMs ?? BREAKER_DEFAULTS.baseCooldownMs,
    cooldownMultiplier: options.cooldownMultiplier ?? BREAKER_DEFAULTS.cooldownMultiplier,
    maxCooldownMs: options.maxCooldownMs ?? BREAKER_DEFAULTS.maxCooldownMs,
    jitter: options.jitter ?? BREAKER_DEFAULTS.jitter,
    respectRetryAfter: options.respectRetryAfter ?? BREAKER_DEFAULTS.respectRetryAfter,
    maxRetryAfterMs: options.maxRetryAfterMs ?? BREAKER_DEFAULTS.maxRetryAfterMs,
    authCooldownMs: options.authCooldownMs ?? BREAKER_DEFAULTS.authCooldownMs,
    probeTimeoutMs: options.probeTimeoutMs ?? BREAKER_DEFAULTS.probeTimeoutMs,
    onListenerError: options.onListenerError ?? ignore,
  };
  const issues: ConfigIssue[] = [];
  const check = (name: keyof ResolvedBreakerOptions, ok: boolean, message: string): void => {
    if (!ok) issues.push({ path: [name], message });
  };
  const r = resolved;
  check(
    'failureThreshold',
    Number.isInteger(r.failureThreshold) && r.failureThreshold >= 1,
    'must be an integer >= 1',
  );
  check('errorRateThreshold', r.errorRateThreshold > 0 && r.errorRateThreshold <= 1, 'must be in (0, 1]');
  check('minCalls', Number.isInteger(r.minCalls) && r.minCalls >= 1, 'must be an integer >= 1');
  check(
    'windowSize',
    Number.isInteger(r.windowSize) && r.windowSize >= r.minCalls,
    'must be an integer >= minCalls',
  );
  for (const name of [
    'windowMs',
    'baseCooldownMs',
    'maxCooldownMs',
    'maxRetryAfterMs',
    'authCooldownMs',
    'probeTimeoutMs',
  ] as const) {
    check(name, Number.isFinite(r[name]) && r[name] > 0, 'must be a finite number of ms > 0');
  }
  check(
    'cooldownMultiplier',
    Number.isFinite(r.cooldownMultiplier) && r.cooldownMultiplier >= 1,
    'must be a finite number >= 1',
  );
  check('maxCooldownMs', r.maxCooldownMs >= r.baseCooldownMs, 'must be >= baseCooldownMs');
  check('jitter', r.jitter >= 0 && r.jitter < 1, 'must be in [0, 1)');
  if (issues.length > 0) throw new ConfigError(issues);
  resolvedOptions.add(resolved);
  return resolved;
}
