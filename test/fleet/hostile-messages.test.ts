/**
 * Fault kind: malformed, foreign and hostile messages on the fleet's channel and keys (another
 * voxroute version in a rolling deploy, another app on the same key prefix, a corrupt or hostile
 * writer). They were dropped without a word, and what did decode was trusted whole: an opening
 * whose end was ten years away opened the breaker for ten years, and a latency summary of 1e300
 * ms seeded an EWMA that thousands of real samples would not bring back. Now an unusable message
 * is counted (`stats().fleet.ignored`) and the first one is told to the logger without quoting
 * it; a peer's opening keeps a breaker open at most as long as any breaker opens (10 min); a
 * summary over 10 min is no measurement.
 */
import { Redis } from 'ioredis';
import { afterEach, expect, it, vi } from 'vitest';
import { type FleetEvent, FleetHealth } from '../../src/fleet/index.js';
import { systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

const TEN_YEARS = 10 * 365 * 86_400_000;
const TEN_MINUTES = 600_000;

describeWithRedis('fleet-shared health: messages it cannot trust', (redis) => {
  let admin: Redis | undefined;
  afterEach(() => admin?.disconnect());

  function fleet(prefix: string, health: HealthRegistry, tracker = new LatencyTracker()) {
    const warnings: string[] = [];
    const events: FleetEvent['type'][] = [];
    const f = new FleetHealth({
      config: { store: 'redis', url: redis.url, keyPrefix: prefix },
      health,
      tracker,
      clock: systemClock,
      onEvent: (e) => events.push(e.type),
      logger: { warn: (message) => warnings.push(message) },
      timings: { readIntervalMs: 20 },
    });
    return { f, warnings, events };
  }

  it('an opening ten years long keeps the breaker open 10 min at most; a bad `d` is no opening', async () => {
    const health = new HealthRegistry();
    const { f } = fleet('far:', health);
    admin = new Redis(redis.url);
    try {
      await f.ready;
      const u = Date.now() + TEN_YEARS;
      const open = { v: 1, t: 'open', id: 'evil', c: 'tts', u, r: 'consecutive-failures' };
      await admin.publish('far:health', JSON.stringify({ ...open, p: 'a' }));
      await admin.publish('far:health', JSON.stringify({ ...open, p: 'b', d: TEN_YEARS }));
      await admin.publish('far:health', JSON.stringify({ ...open, p: 'c', d: -1 }));
      await admin.publish('far:health', JSON.stringify({ ...open, p: 'd', d: '5000' }));
      await vi.waitFor(() => expect(f.stats().received + f.stats().ignored).toBe(4), {
        timeout: 10_000,
        interval: 10,
      });
      const open2 = health.snapshot().map((b) => [b.provider, b.state, b.reopenAt! - b.openedAt!]);
      expect(open2).toEqual([
        ['a', 'open', expect.any(Number)],
        ['b', 'open', expect.any(Number)],
      ]);
      for (const [, , ms] of open2) {
        expect(ms).toBeLessThanOrEqual(TEN_MINUTES);
        expect(ms).toBeGreaterThan(TEN_MINUTES - 1_000);
      }
      expect(f.stats().ignored).toBe(2);
    } finally {
      await f.close();
    }
  }, 30_000);

  it('malformed messages, another version and non-voxroute values are ignored, counted and told once, unquoted', async () => {
    const health = new HealthRegistry();
    const { f, warnings, events } = fleet('odd:', health);
    admin = new Redis(redis.url);
    try {
      await f.ready;
      const u = Date.now() + 5_000;
      for (const text of [
        'not json sk-live-SECRET',
        JSON.stringify({ v: 2, t: 'open', id: 'next', p: 'a', c: 'tts', u, r: 'x', d: 5_000 }),
        '{"v":1,"t":"open","id":"x","p":"a","c":"tts","u":1,"r":"x","__proto__":{"polluted":true}}',
        JSON.stringify({ v: 1, t: 'open', id: 'x', p: 'a', c: 'video', u, r: 'x' }),
        '{"__proto__":{"polluted":true},"v":1}',
      ])
        await admin.publish('odd:health', text);
      await vi.waitFor(() => expect(f.stats().ignored).toBe(4), { timeout: 10_000, interval: 10 });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The one valid message opened until u, in the past: nothing changes.
      expect(health.snapshot()).toEqual([]);
      expect(warnings).toEqual([
        'Fleet-shared health ignored a message on the channel odd:health: not a voxroute message of this version (malformed, or written by another app on this keyPrefix?); later ones are counted in stats().fleet.ignored',
      ]);
      expect(events.filter((e) => e === 'ignored')).toEqual(['ignored']);
      expect(warnings.join()).not.toContain('SECRET');

      // A value of another version in the store, read at (re)connect.
      await admin.hset('odd:breakers', '["a","tts"]', JSON.stringify({ v: 2, p: 'a' }));
      const { f: g, warnings: gWarnings } = fleet('odd:', new HealthRegistry());
      await g.ready;
      expect(g.stats().ignored).toBe(1);
      expect(gWarnings).toEqual([
        'Fleet-shared health ignored a value of the hash odd:breakers: written by another voxroute version (v: 2); later ones are counted in stats().fleet.ignored',
      ]);
      await g.close();
    } finally {
      await f.close();
    }
  }, 30_000);

  it('a latency summary of 1e300 ms seeds nothing', async () => {
    const tracker = new LatencyTracker();
    const { f } = fleet('lat:', new HealthRegistry(), tracker);
    admin = new Redis(redis.url);
    try {
      const at = Date.now();
      const huge = LatencyTracker.key('a', 'tts', 'm');
      const fine = LatencyTracker.key('b', 'tts', 'm');
      await admin.hset('lat:latency', huge, JSON.stringify({ v: 1, ewma: 1e300, p95: 1e300, n: 1, at }));
      await admin.hset('lat:latency', fine, JSON.stringify({ v: 1, ewma: 90, p95: 120, n: 5, at }));
      await f.ready;
      await vi.waitFor(() => expect(tracker.snapshot(fine).samples).toBe(1), {
        timeout: 10_000,
        interval: 10,
      });
      expect(tracker.snapshot(huge).samples).toBe(0);
      expect(f.stats().ignored).toBeGreaterThanOrEqual(1);
    } finally {
      await f.close();
    }
  }, 30_000);
});
