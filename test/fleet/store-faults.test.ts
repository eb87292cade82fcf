import { expect, it } from 'vitest';
import { connectFleet } from '../../src/fleet/redis-client.js';
import { createRouter, type Router } from '../../src/index.js';
import { chatOk, chatServer, fleetConfig, nextOpening } from './helpers.js';
import { describeWithRedis } from './with-redis.js';

type FleetType = 'connected' | 'disconnected' | 'error' | 'dropped';

function nextFleetEvent(router: Router, type: FleetType): Promise<void> {
  return new Promise((resolve) => {
    const off = router.on('fleet', (e) => {
      if (e.type === type) {
        off();
        resolve();
      }
    });
  });
}

describeWithRedis('fleet-shared health: the store fails', (redis) => {
  it('Redis killed: every call still succeeds and the failure is reported; sharing resumes when Redis returns; a paused Redis delays no call', async () => {
    // 503 with Retry-After: 60 s: the first failure opens the breaker for a minute.
    const down = await chatServer('down', () => 0, 60);
    const up = await chatServer('up');
    const a = createRouter(fleetConfig(redis.url, down.url, up.url, 'sk-a'));
    const b = createRouter(fleetConfig(redis.url, down.url, up.url, 'sk-b'));
    const errors: string[] = [];
    a.on('fleet', (e) => e.error && errors.push(e.error));
    try {
      await Promise.all([a.warmup(), b.warmup()]);
      expect([a.stats().fleet?.state, b.stats().fleet?.state]).toEqual(['ready', 'ready']);

      const gone = Promise.all([nextFleetEvent(a, 'disconnected'), nextFleetEvent(b, 'disconnected')]);
      await redis.kill();
      await gone;
      const opened = nextOpening(a, 'down');
      for (let i = 0; i < 5; i++) expect(await chatOk(a)).toBe('hi');
      expect(await opened).toBe('retry-after');
      expect(down.seen.map((r) => r.key)).toEqual(['sk-a']);
      const stats = a.stats().fleet!;
      expect(stats.state).toBe('down');
      expect(stats.dropped).toBeGreaterThanOrEqual(1);
      expect(stats.published).toBe(0);
      // Not shared while the store is down: b still tries the provider once.
      expect(await chatOk(b)).toBe('hi');
      expect(down.seen.length).toBe(2);
      const bOpenedAlone = b.stats().providers.find((p) => p.provider === 'down');
      expect(bOpenedAlone?.breaker).toBe('open');
      await b.close();

      // Redis returns: a republishes its open breaker; a fresh router c learns it, and so
      // never sends the provider a request.
      const back = nextFleetEvent(a, 'connected');
      await redis.start();
      await back;
      const c = createRouter(fleetConfig(redis.url, down.url, up.url, 'sk-c'));
      try {
        const cOpened = nextOpening(c, 'down');
        await c.warmup();
        expect(await cOpened).toBe('fleet');
        for (let i = 0; i < 3; i++) expect(await chatOk(c)).toBe('hi');
        expect(down.seen.map((r) => r.key)).toEqual(['sk-a', 'sk-b']);

        // A paused Redis (every command hangs for 3 s): calls go on; none waits for the store.
        const admin = await connectFleet(redis.url);
        await new Promise((r) => admin.commands.once('ready', r));
        // Timed from before the pause: a call that waited for the store would end only when the
        // pause does, 3 s after it began (timed from after it, it could end just under 3 s).
        const started = performance.now();
        await admin.commands.call('CLIENT', 'PAUSE', '3000', 'ALL');
        admin.commands.disconnect();
        admin.subscriber.disconnect();
        for (let i = 0; i < 5; i++) {
          expect(await chatOk(a)).toBe('hi');
          expect(await chatOk(c)).toBe('hi');
        }
        expect(performance.now() - started).toBeLessThan(3000);
      } finally {
        await c.close();
      }
      for (const error of errors) expect(error).not.toContain(redis.url);
    } finally {
      await a.close();
      await b.close();
      await down.close();
      await up.close();
    }
  }, 60_000);
});
