/**
 * Fault kind: connection exhaustion. Each router opened two Redis connections of its own, so an
 * app that makes a router per tenant held two per tenant in every process (40 for 20 routers),
 * against a managed Redis that may allow a few dozen clients, shared with the app's own use.
 * The routers of a process now share two connections per URL; closing one router keeps the
 * others' subscriptions, and closing the last closes both.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { chatServer, fleetConfig } from './helpers.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: many routers in one process', (redis) => {
  let admin: Redis;
  beforeAll(() => {
    admin = new Redis(redis.url);
  });
  afterAll(() => admin.disconnect());

  /** Connections to the server other than the admin's own. */
  async function clients(): Promise<number> {
    const list = String(await admin.call('CLIENT', 'LIST'));
    return list.trim().split('\n').length - 1;
  }

  it('20 routers hold 2 connections; an opening still reaches the others as routers close; a prefix none uses is unsubscribed; none are left after the last', async () => {
    const down = await chatServer('down', () => 0, 60);
    const up = await chatServer('up');
    const routers: Router[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const config = fleetConfig(redis.url, down.url, up.url, `sk-${i}`);
        // Two apps' prefixes on the same connections.
        routers.push(
          createRouter({ ...config, health: { ...config.health, keyPrefix: i % 2 ? 'odd:' : 'even:' } }),
        );
      }
      await Promise.all(routers.map((r) => r.warmup()));
      // warmup() gives the store 2.5 s: on a loaded machine some routers are still connecting.
      await vi.waitFor(
        () => expect(routers.map((r) => r.stats().fleet?.state)).toEqual(routers.map(() => 'ready')),
        { timeout: 20_000, interval: 20 },
      );
      expect(await clients()).toBe(2);
      expect(await admin.call('PUBSUB', 'NUMSUB', 'even:health', 'odd:health')).toEqual([
        'even:health',
        1,
        'odd:health',
        1,
      ]);

      // Routers 0 and 1 close; router 2 (even) opens its breaker: the even routers hear it.
      await Promise.all(routers.splice(0, 2).map((r) => r.close()));
      const [opener, ...rest] = routers as [Router, ...Router[]];
      for await (const _ of opener.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }));
      const even = rest.filter((_, i) => i % 2 === 1);
      const odd = rest.filter((_, i) => i % 2 === 0);
      await vi.waitFor(() => expect(even.map((r) => r.stats().fleet?.received)).toEqual(even.map(() => 1)), {
        timeout: 10_000,
        interval: 20,
      });
      expect(odd.map((r) => r.stats().fleet?.received)).toEqual(odd.map(() => 0));

      // Every odd router closes: their channel is unsubscribed, the even one stays.
      await Promise.all(odd.map((r) => r.close()));
      await vi.waitFor(
        async () =>
          expect(await admin.call('PUBSUB', 'NUMSUB', 'even:health', 'odd:health')).toEqual([
            'even:health',
            1,
            'odd:health',
            0,
          ]),
        { timeout: 10_000, interval: 20 },
      );
      expect(await clients()).toBe(2);

      await Promise.all(routers.splice(0).map((r) => r.close()));
      await vi.waitFor(async () => expect(await clients()).toBe(0), { timeout: 10_000, interval: 20 });
    } finally {
      await Promise.all(routers.map((r) => r.close()));
      await down.close();
      await up.close();
    }
  }, 60_000);
});
