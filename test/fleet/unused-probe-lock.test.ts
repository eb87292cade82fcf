/**
 * Fault kind: a probe lock held by a process that does not probe. The gate is asked for every
 * candidate of every call, so a process whose route does not need the provider now (it is a
 * fallback there) took the fleet probe lock as readily as one whose route starts with it, and
 * then sent no probe: every other process was kept from probing for the lock's 10 s, and the
 * same process could take it again, so a provider back from its outage waited 20 s and more
 * for its first probe. A lock with no probe started within 1 s is now released, and its holder
 * leaves it to the others for the lock's lifetime.
 */
import { expect, it, vi } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: a probe lock nobody uses', (redis) => {
  it('the process that took the lock without probing lets it go within a second; the one that needs it probes', async () => {
    let offset = 0;
    const clock = {
      now: () => performance.now() + offset,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    const fleet = (health: HealthRegistry) =>
      new FleetHealth({
        config: { store: 'redis', url: redis.url, keyPrefix: 'unused:' },
        health,
        tracker: new LatencyTracker(),
        clock,
        onEvent: () => {},
      });
    const idleHealth = new HealthRegistry({ clock });
    const needsHealth = new HealthRegistry({ clock });
    const idle = fleet(idleHealth);
    const needs = fleet(needsHealth);
    try {
      await Promise.all([idle.ready, needs.ready]);
      needsHealth.get('gpu', 'tts').recordFailure({ retryAfterMs: 1_000 });
      await vi.waitFor(() => expect(idle.stats().received).toBe(1), { timeout: 10_000, interval: 10 });
      offset += 2_000;
      const idleBreaker = idleHealth.get('gpu', 'tts');
      const needsBreaker = needsHealth.get('gpu', 'tts');
      // The idle process asks first (its calls rank candidates) and wins the lock; it never
      // calls the provider (no tryAcquire).
      await vi.waitFor(() => expect(idleBreaker.allows()).toBe(true), { timeout: 10_000, interval: 10 });
      expect(needsBreaker.allows()).toBe(false);
      // Within about a second (not the lock's 10 s) the one that needs it may probe.
      await vi.waitFor(() => expect(needsBreaker.allows()).toBe(true), { timeout: 5_000, interval: 20 });
      expect(needsBreaker.tryAcquire()).toBe(true);
      expect(idleBreaker.allows()).toBe(false);
    } finally {
      await Promise.all([idle.close(), needs.close()]);
    }
  }, 30_000);
});
