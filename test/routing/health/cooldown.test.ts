import { describe, expect, it } from 'vitest';
import { grownCooldownMs, retryAfterCooldownMs } from '../../../src/routing/health/cooldown.js';
import { BREAKER_DEFAULTS } from '../../../src/routing/health/options.js';

const base = {
  baseCooldownMs: BREAKER_DEFAULTS.baseCooldownMs,
  cooldownMultiplier: BREAKER_DEFAULTS.cooldownMultiplier,
  maxCooldownMs: BREAKER_DEFAULTS.maxCooldownMs,
  jitter: BREAKER_DEFAULTS.jitter,
};

describe('grownCooldownMs', () => {
  it('doubles from 1 s per opening and caps at 60 s without jitter (random 0.5)', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) =>
      grownCooldownMs(n, { ...base, random: () => 0.5 }),
    );
    expect(values).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('jitter is exactly -20% at random 0 and tends to +20% as random tends to 1', () => {
    expect(grownCooldownMs(1, { ...base, random: () => 0 })).toBe(800);
    expect(grownCooldownMs(3, { ...base, random: () => 0 })).toBe(3200);
    expect(grownCooldownMs(10, { ...base, random: () => 0 })).toBe(48000);
    const almostOne = 1 - 2 ** -40;
    expect(grownCooldownMs(1, { ...base, random: () => almostOne })).toBe(1200);
    expect(grownCooldownMs(10, { ...base, random: () => almostOne })).toBe(72000);
    expect(grownCooldownMs(2, { ...base, random: () => 0.75 })).toBe(2200);
  });

  it('treats opening 0 like the first and survives a huge exponent', () => {
    expect(grownCooldownMs(0, { ...base, random: () => 0.5 })).toBe(1000);
    expect(grownCooldownMs(5000, { ...base, random: () => 0.5 })).toBe(60000);
  });

  it('uses the given base, multiplier, cap and jitter', () => {
    const opts = {
      baseCooldownMs: 500,
      cooldownMultiplier: 3,
      maxCooldownMs: 10_000,
      jitter: 0,
      random: () => 0.9,
    };
    expect([1, 2, 3, 4, 5].map((n) => grownCooldownMs(n, opts))).toEqual([500, 1500, 4500, 10000, 10000]);
  });
});

describe('retryAfterCooldownMs', () => {
  it('clamps to the maximum and treats absent, NaN, zero and negative as no wait', () => {
    expect(retryAfterCooldownMs(30_000, 600_000)).toBe(30_000);
    expect(retryAfterCooldownMs(3_600_000, 600_000)).toBe(600_000);
    expect(retryAfterCooldownMs(Number.POSITIVE_INFINITY, 600_000)).toBe(600_000);
    expect(retryAfterCooldownMs(undefined, 600_000)).toBe(0);
    expect(retryAfterCooldownMs(Number.NaN, 600_000)).toBe(0);
    expect(retryAfterCooldownMs(0, 600_000)).toBe(0);
    expect(retryAfterCooldownMs(-5, 600_000)).toBe(0);
  });
});
