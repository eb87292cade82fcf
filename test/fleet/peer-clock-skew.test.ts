/**
 * Fault kind: clock skew between the processes of a fleet. An opening crossed processes as its
 * end in Unix epoch ms only, so a peer whose clock ran an hour ahead opened every other router's
 * breaker for an hour and a cooldown (a 5 s Retry-After became 60 min without the provider), and
 * one whose clock ran behind had its openings dropped as already over. An opening now also
 * carries the cooldown it has left (`d`): a router that hears it takes that, whatever the clocks
 * say; one that reads it from the store later takes the time to its end, never longer than `d`.
 */
import { Redis } from 'ioredis';
import { expect, it, vi } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { type Clock, systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

const HOUR = 3_600_000;

/**
 * Time that stands still while a test runs (real timers): every cooldown is exact, whatever the
 * time the messages take between the processes on a loaded machine. `WALL` is its Unix time.
 */
const clock: Clock = { ...systemClock, now: () => 1_000_000 };
const WALL = Date.now();

describeWithRedis('fleet-shared health: clocks that disagree', (redis) => {
  function fleet(prefix: string, health: HealthRegistry, skewMs: number): FleetHealth {
    return new FleetHealth({
      config: { store: 'redis', url: redis.url, keyPrefix: prefix },
      health,
      tracker: new LatencyTracker(),
      clock,
      onEvent: () => {},
      wallNow: () => WALL + skewMs,
    });
  }

  /** The cooldown the breaker of ('gpu', 'tts') in `health` opened for, ms. */
  function cooldownOf(health: HealthRegistry): number | undefined {
    const b = health.snapshot().find((s) => s.provider === 'gpu' && s.capability === 'tts');
    return b?.reopenAt !== undefined && b.openedAt !== undefined ? b.reopenAt - b.openedAt : undefined;
  }

  for (const [name, skew] of [
    ['an hour ahead', HOUR],
    ['an hour behind', -HOUR],
  ] as const) {
    it(`a peer whose clock is ${name}: its 5 s opening opens ours for 5 s, heard now or read later`, async () => {
      const prefix = `skew${skew > 0 ? 'ahead' : 'behind'}:`;
      const peerHealth = new HealthRegistry({ clock });
      const health = new HealthRegistry({ clock });
      const peer = fleet(prefix, peerHealth, skew);
      const self = fleet(prefix, health, 0);
      let late: FleetHealth | undefined;
      try {
        await Promise.all([peer.ready, self.ready]);
        // A Retry-After of 5 s opens the peer's breaker for exactly 5 s.
        peerHealth.get('gpu', 'tts').recordFailure({ retryAfterMs: 5_000 });
        expect(cooldownOf(peerHealth)).toBe(5_000);
        await vi.waitFor(() => expect(self.stats().received).toBe(1), { timeout: 10_000, interval: 10 });
        expect(cooldownOf(health)).toBe(5_000);

        // A router started later reads it from the store: with the peer ahead, the time to its
        // end is an hour too long and `d` bounds it; with the peer behind it looks over.
        const lateHealth = new HealthRegistry({ clock });
        late = fleet(prefix, lateHealth, 0);
        await late.ready;
        expect(cooldownOf(lateHealth)).toBe(skew > 0 ? 5_000 : undefined);
      } finally {
        await Promise.all([peer.close(), self.close(), late?.close()]);
      }
    }, 30_000);
  }

  it('a peer of an older voxroute (no `d`): the time to its end is taken, as before', async () => {
    const health = new HealthRegistry({ clock });
    const self = fleet('skewold:', health, 0);
    const admin = new Redis(redis.url);
    try {
      await self.ready;
      const u = WALL + 5_000;
      await admin.publish(
        'skewold:health',
        JSON.stringify({ v: 1, t: 'open', id: 'old', p: 'gpu', c: 'tts', u, r: 'retry-after' }),
      );
      await vi.waitFor(() => expect(self.stats().received).toBe(1), { timeout: 10_000, interval: 10 });
      expect(cooldownOf(health)).toBe(5_000);
    } finally {
      admin.disconnect();
      await self.close();
    }
  }, 30_000);
});
