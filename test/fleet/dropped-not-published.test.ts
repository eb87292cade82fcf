/**
 * Fault kind: a count that reports what did not happen. A breaker that closed while the store was
 * down counted its close message in `stats().fleet.published` although the write was dropped
 * (and counted in `dropped` too), so `published` overstated what the fleet was told. Openings
 * were counted only when sent; closings now are too. Needs no Redis: the store is a closed port.
 */
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';

it('a breaker opens and closes while the store cannot be reached: nothing published, both writes dropped', async () => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  let now = 0;
  const clock = { now: () => now, setTimeout, clearTimeout } as never;
  // A draw of 0.5 is a jitter factor of exactly 1: the first cooldown is 1 s, as the Retry-After.
  const health = new HealthRegistry({ clock, random: () => 0.5 });
  const fleet = new FleetHealth({
    config: { store: 'redis', url: `redis://127.0.0.1:${port}`, keyPrefix: 'drop:' },
    health,
    tracker: new LatencyTracker(),
    clock,
    onEvent: () => {},
  });
  try {
    const breaker = health.get('gpu', 'tts');
    breaker.recordFailure({ retryAfterMs: 1_000 });
    now += 1_000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordSuccess();
    expect(breaker.state()).toBe('closed');
    expect(fleet.stats()).toMatchObject({ state: 'connecting', published: 0, dropped: 2 });
  } finally {
    await fleet.close();
  }
});
