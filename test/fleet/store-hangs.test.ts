/**
 * Fault kind: a store that hangs with its sockets open (a stalled or partitioned Redis: no reset,
 * no reply, so the client still looks connected and only its commands time out).
 * - The fleet probe gate held back every probe of a breaker whose opening the fleet shared until
 *   the lock was taken, and the lock could not be taken: a provider back from its outage was
 *   never tried again for as long as the store hung. The router now probes alone when the store
 *   fails to answer for the lock, as it does when the store is down.
 * - A store that became ready but did not answer the first SUBSCRIBE or HGETALL within the
 *   command timeout left the fleet 'connecting' (or 'down') for good, sharing nothing, since no
 *   new 'ready' came to try again. It is now tried again every 2 s.
 */
import { expect, it, vi } from 'vitest';
import { type FleetEvent, FleetHealth } from '../../src/fleet/index.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { redisProxy } from './helpers.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: a store that hangs', (redis) => {
  it('a shared cooldown ends while the store hangs: the router probes alone once the lock cannot be had', async () => {
    const proxy = await redisProxy(redis.port);
    // The breakers' clock, moved past the cooldown by the test.
    let offset = 0;
    const clock = {
      now: () => performance.now() + offset,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    const health = new HealthRegistry({ clock });
    const errors: string[] = [];
    const fleet = new FleetHealth({
      config: { store: 'redis', url: proxy.url, keyPrefix: 'hang:' },
      health,
      tracker: new LatencyTracker(),
      clock,
      onEvent: (e: FleetEvent) => {
        if (e.type === 'error') errors.push(e.error!);
      },
    });
    try {
      await fleet.ready;
      expect(fleet.stats().state).toBe('ready');
      const breaker = health.get('gpu', 'tts');
      breaker.recordFailure({ retryAfterMs: 1_000 });
      expect(breaker.state()).toBe('open');

      proxy.hold();
      offset += 2_000;
      // Half-open: the gate asks the store for the lock, in the background, and holds the probe
      // back meanwhile.
      expect(breaker.tryAcquire()).toBe(false);
      // The store does not answer (the command times out after 1 s): this router probes alone.
      await vi.waitFor(() => expect(breaker.allows()).toBe(true), { timeout: 10_000, interval: 20 });
      expect(errors).toContain('Command timed out');
      expect(fleet.stats().state).toBe('ready');
      expect(breaker.tryAcquire()).toBe(true);
      breaker.recordSuccess();
      expect(breaker.state()).toBe('closed');
    } finally {
      proxy.release();
      await fleet.close();
      await proxy.close();
    }
  }, 30_000);

  it('the first SUBSCRIBE after connecting times out: the fleet tries again and becomes ready', async () => {
    const proxy = await redisProxy(redis.port);
    proxy.holdAfterReady();
    const events: FleetEvent[] = [];
    const fleet = new FleetHealth({
      config: { store: 'redis', url: proxy.url, keyPrefix: 'hang2:' },
      health: new HealthRegistry(),
      tracker: new LatencyTracker(),
      clock: { now: () => performance.now(), setTimeout, clearTimeout } as never,
      onEvent: (e) => events.push(e),
    });
    try {
      await vi.waitFor(() => expect(events).toContainEqual({ type: 'error', error: 'Command timed out' }), {
        timeout: 10_000,
        interval: 20,
      });
      expect(fleet.stats().state).toBe('connecting');
      proxy.release();
      await vi.waitFor(() => expect(fleet.stats().state).toBe('ready'), { timeout: 10_000, interval: 20 });
      expect(events.at(-1)).toEqual({ type: 'connected' });
    } finally {
      await fleet.close();
      await proxy.close();
    }
  }, 30_000);
});
