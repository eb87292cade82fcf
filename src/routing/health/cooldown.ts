import type { ResolvedBreakerOptions } from './options.js';

/**
 * Length in ms of the cooldown of the `opening`-th consecutive opening (1-based) of a breaker:
 * `min(maxCooldownMs, baseCooldownMs * cooldownMultiplier ** (opening - 1))`, multiplied by a
 * jitter factor `1 + jitter * (2 * random() - 1)` (uniform in [1 - jitter, 1 + jitter) for
 * `random()` in [0, 1)), rounded to a whole ms. With the defaults: about 1 s, 2 s, 4 s, 8 s,
 * 16 s, 32 s, then 60 s, each +-20%.
 */
export function grownCooldownMs(
  opening: number,
  options: Pick<
    ResolvedBreakerOptions,
    'baseCooldownMs' | 'cooldownMultiplier' | 'maxCooldownMs' | 'jitter' | 'random'
  >,
): number {
  const steps = Math.max(0, opening - 1);
  const nominal = Math.min(
    options.maxCooldownMs,
    options.baseCooldownMs * options.cooldownMultiplier ** steps,
  );
  const factor = 1 + options.jitter * (2 * options.random() - 1);
  return Math.round(nominal * factor);
}

/**
 * A Retry-After in ms clamped to [0, maxRetryAfterMs]; 0 when absent, not a number, or not
 * positive (no wait asked).
 */
export function retryAfterCooldownMs(retryAfterMs: number | undefined, maxRetryAfterMs: number): number {
  if (retryAfterMs === undefined || Number.isNaN(retryAfterMs) || retryAfterMs <= 0) return 0;
  return Math.min(retryAfterMs, maxRetryAfterMs);
}
