import { expect, it, vi } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: latency summaries', (redis) => {
  function fleet(tracker: LatencyTracker): FleetHealth {
    return new FleetHealth({
      config: { store: 'redis', url: redis.url, keyPrefix: 'seed:' },
      health: new HealthRegistry(),
      tracker,
      clock: systemClock,
      onEvent: () => {},
      timings: { summaryIntervalMs: 20, readIntervalMs: 20 },
    });
  }

  it("seeds a cold router with the fleet's EWMA as one cold-start sample; local measurements are left alone", async () => {
    const warm = new LatencyTracker();
    const fast = LatencyTracker.key('ec2', 'tts', 'kokoro');
    const slow = LatencyTracker.key('openai', 'tts', 'gpt-4o-mini-tts');
    const now = systemClock.now();
    for (let i = 0; i < 3; i++) warm.recordSuccess(fast, 80, now);
    for (let i = 0; i < 3; i++) warm.recordSuccess(slow, 400, now);
    const cold = new LatencyTracker();
    cold.recordSuccess(slow, 250, now); // measured here: stays as measured
    const a = fleet(warm);
    const b = fleet(cold);
    try {
      await Promise.all([a.ready, b.ready]);
      await vi.waitFor(() => expect(cold.snapshot(fast).samples).toBe(1), {
        timeout: 10_000,
        interval: 20,
      });
      expect(cold.snapshot(fast).ewmaMs).toBe(80);
      expect(cold.snapshot(slow)).toMatchObject({ samples: 1, ewmaMs: 250 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 30_000);
});
