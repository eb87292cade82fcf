import { expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { chatOk, chatServer, fleetConfig, nextOpening } from './helpers.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: the fleet probe lock', (redis) => {
  it('after a shared cooldown, one process of the fleet probes; the others wait for its outcome', async () => {
    // Retry-After: 60 s, so that each opening lasts 60 s whatever the jitter, and real time (the
    // clock's base) cannot end one while the test runs: only the test's offset does.
    const down = await chatServer('down', () => 0, 60);
    const up = await chatServer('up');
    // The routers' clock, moved past the cooldown by the test instead of waiting for it.
    let offset = 0;
    const clock = {
      now: () => performance.now() + offset,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    const routers = ['sk-a', 'sk-b', 'sk-c'].map((key) =>
      createRouter(fleetConfig(redis.url, down.url, up.url, key), { clock }),
    );
    const [a, b, c] = routers as [Router, Router, Router];
    try {
      await Promise.all(routers.map((r) => r.warmup()));
      const learnt = Promise.all([nextOpening(b, 'down'), nextOpening(c, 'down')]);
      expect(await chatOk(a)).toBe('hi');
      expect(await learnt).toEqual(['fleet', 'fleet']);
      expect(down.seen.length).toBe(1);

      offset += 61_000;
      // All three call at once, round after round, until one has probed (the lock is taken
      // in the background, so the first rounds go to the provider that is up).
      const round = async () => expect(await Promise.all(routers.map(chatOk))).toEqual(['hi', 'hi', 'hi']);
      for (let i = 0; i < 200 && down.seen.length === 1; i++) await round();
      expect(down.seen.length).toBe(2);
      // Its probe failed (503, Retry-After: 60): the others heard it and do not probe, nor does it.
      for (let i = 0; i < 5; i++) await round();
      expect(down.seen.length).toBe(2);
    } finally {
      await Promise.all(routers.map((r) => r.close()));
      await down.close();
      await up.close();
    }
  }, 60_000);
});
