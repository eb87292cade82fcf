/**
 * Fault kind: one process's configuration fault spread to the fleet. A 401 opens a breaker at
 * once for 5 min (`auth`), and that opening was shared like a provider outage: one pod with a
 * wrong or expired key (a canary, a bad secret in one deploy, another app on the same prefix)
 * opened the provider's breaker in every router of the fleet for 5 min, and again every 5 min
 * as its own probe failed. Each router now learns a credential failure from its own call (one
 * fast 401 each); an older peer's `auth` opening is not applied either.
 */
import { Redis } from 'ioredis';
import { expect, it, vi } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: a peer whose credentials are refused', (redis) => {
  function fleet(health: HealthRegistry): FleetHealth {
    return new FleetHealth({
      config: { store: 'redis', url: redis.url, keyPrefix: 'auth:' },
      health,
      tracker: new LatencyTracker(),
      clock: systemClock,
      onEvent: () => {},
    });
  }

  it("a peer's auth opening leaves our breaker closed; its Retry-After opening, sent after, still opens it", async () => {
    const badKey = new HealthRegistry();
    const good = new HealthRegistry();
    const bad = fleet(badKey);
    const self = fleet(good);
    const admin = new Redis(redis.url);
    let late: FleetHealth | undefined;
    try {
      await Promise.all([bad.ready, self.ready]);
      badKey.get('gpu', 'tts').recordFailure({ auth: true });
      expect(badKey.get('gpu', 'tts').snapshot()).toMatchObject({ state: 'open', openReason: 'auth' });
      // An older peer sends its auth opening anyway.
      const u = Date.now() + 300_000;
      await admin.publish(
        'auth:health',
        JSON.stringify({ v: 1, t: 'open', id: 'old', p: 'gpu', c: 'tts', u, r: 'auth' }),
      );
      // A provider fault on another pair, sent after both: when it is heard, they were too.
      badKey.get('gpu', 'chat').recordFailure({ retryAfterMs: 30_000 });
      await vi.waitFor(
        () =>
          expect(good.snapshot().map((b) => [b.provider, b.capability, b.state])).toEqual([
            ['gpu', 'chat', 'open'],
          ]),
        { timeout: 10_000, interval: 10 },
      );
      expect(good.peek('gpu', 'tts')).toBeUndefined();

      // A router started later reads the store: only the Retry-After opening is there to read.
      const lateHealth = new HealthRegistry();
      late = fleet(lateHealth);
      await late.ready;
      expect(lateHealth.snapshot().map((b) => [b.provider, b.capability, b.openReason])).toEqual([
        ['gpu', 'chat', 'fleet'],
      ]);
    } finally {
      admin.disconnect();
      await Promise.all([bad.close(), self.close(), late?.close()]);
    }
  }, 30_000);
});
