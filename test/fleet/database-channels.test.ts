/**
 * Fault kind: fleets kept apart by Redis database that still heard each other. Keys live in the
 * database a URL selects (`redis://host/1`), but pub/sub channels are server-wide: a staging
 * router on database 1 whose quota ran out (a 429 with a Retry-After) opened the production
 * routers' breakers on database 0 of the same server, while a router started later on database
 * 0 did not see it (it reads the keys of its own database). The channel of any database but 0
 * now names it.
 */
import { expect, it, vi } from 'vitest';
import { fleetChannel } from '../../src/fleet/channel.js';
import { FleetHealth } from '../../src/fleet/index.js';
import { systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: one Redis server, several databases', (redis) => {
  function fleet(db: string, health: HealthRegistry): FleetHealth {
    return new FleetHealth({
      config: { store: 'redis', url: `${redis.url}${db}`, keyPrefix: 'dbs:' },
      health,
      tracker: new LatencyTracker(),
      clock: systemClock,
      onEvent: () => {},
    });
  }

  it('an opening on database 1 reaches the routers of database 1, not those of databases 0 and 2', async () => {
    const registries = [1, 2, 3, 4, 5, 6].map(() => new HealthRegistry());
    const [staging, peer, prod, prodPeer, other, otherPeer] = registries as HealthRegistry[] as [
      HealthRegistry,
      HealthRegistry,
      HealthRegistry,
      HealthRegistry,
      HealthRegistry,
      HealthRegistry,
    ];
    const fleets = [
      fleet('/1', staging),
      fleet('/1', peer),
      fleet('', prod),
      fleet('/0', prodPeer),
      fleet('/2', other),
      fleet('/2', otherPeer),
    ];
    const [, heard, , prodHeard, , otherHeard] = fleets as FleetHealth[];
    try {
      await Promise.all(fleets.map((f) => f.ready));
      staging.get('gpu', 'tts').recordFailure({ retryAfterMs: 60_000 });
      await vi.waitFor(() => expect(heard!.stats().received).toBe(1), { timeout: 10_000, interval: 10 });
      expect(peer.snapshot().map((b) => [b.provider, b.state, b.openReason])).toEqual([
        ['gpu', 'open', 'fleet'],
      ]);
      // Openings on databases 0 and 2, published after staging's: a subscriber of staging's
      // channel would get staging's message first (Redis delivers in publish order).
      prod.get('cpu', 'chat').recordFailure({ retryAfterMs: 60_000 });
      other.get('cpu', 'chat').recordFailure({ retryAfterMs: 60_000 });
      await vi.waitFor(() => expect(prodHeard!.stats().received).toBeGreaterThanOrEqual(1), {
        timeout: 10_000,
        interval: 10,
      });
      await vi.waitFor(() => expect(otherHeard!.stats().received).toBeGreaterThanOrEqual(1), {
        timeout: 10_000,
        interval: 10,
      });
      expect([prodHeard!.stats().received, otherHeard!.stats().received]).toEqual([1, 1]);
      expect(prodPeer.snapshot().map((b) => b.provider)).toEqual(['cpu']);
      expect(otherPeer.snapshot().map((b) => b.provider)).toEqual(['cpu']);
    } finally {
      await Promise.all(fleets.map((f) => f.close()));
    }
  }, 30_000);

  it('names the channel of a database other than 0, read as ioredis reads the URL', () => {
    expect(fleetChannel('v:', 'redis://h:6379')).toBe('v:health');
    expect(fleetChannel('v:', 'redis://h:6379/')).toBe('v:health');
    expect(fleetChannel('v:', 'redis://h:6379/0')).toBe('v:health');
    expect(fleetChannel('v:', 'redis://:pw@h/3')).toBe('v:health:db3');
    expect(fleetChannel('v:', 'rediss://h/03')).toBe('v:health:db3');
    expect(fleetChannel('v:', 'redis://h?db=4')).toBe('v:health:db4');
    expect(fleetChannel('v:', 'redis://h/5?db=4')).toBe('v:health:db5');
  });
});
