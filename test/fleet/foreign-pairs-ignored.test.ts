/**
 * Fault kind: state applied to something this router does not have. Fleet messages name
 * providers by config name; a peer may serve a (provider, capability) this router lacks. Its
 * breaker opening used to open a ghost breaker here (with a `breaker` event for a capability the
 * provider does not have) and its latency summary to seed a ghost tracker entry. With `serves`
 * (the router passes its config), both are ignored; pairs this router has are still shared.
 */
import { expect, it, vi } from 'vitest';
import { FleetHealth } from '../../src/fleet/index.js';
import { systemClock } from '../../src/internal/clock.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import type { Capability } from '../../src/types/route-result.js';
import { describeWithRedis } from './with-redis.js';

describeWithRedis('fleet-shared health: pairs this router does not serve', (redis) => {
  function fleet(
    health: HealthRegistry,
    tracker: LatencyTracker,
    serves?: (p: string, c: Capability) => boolean,
  ) {
    return new FleetHealth({
      config: { store: 'redis', url: redis.url, keyPrefix: 'foreign:' },
      health,
      tracker,
      clock: systemClock,
      onEvent: () => {},
      timings: { summaryIntervalMs: 20, readIntervalMs: 20 },
      ...(serves ? { serves } : {}),
    });
  }

  it("a peer's opening and summary for a pair this router lacks leave it alone; a pair it has is shared", async () => {
    const peerHealth = new HealthRegistry({ failureThreshold: 1 });
    const peerTracker = new LatencyTracker();
    const now = systemClock.now();
    peerTracker.recordSuccess(LatencyTracker.key('gpu', 'tts', 'kokoro'), 90, now);
    peerTracker.recordSuccess(LatencyTracker.key('gpu', 'chat', 'llama'), 70, now);
    const health = new HealthRegistry();
    const tracker = new LatencyTracker();
    const changes: string[] = [];
    health.onStateChange((c) => changes.push(`${c.provider}/${c.capability} ${c.to} ${c.reason}`));
    // This router's 'gpu' serves chat only.
    const peer = fleet(peerHealth, peerTracker);
    const self = fleet(health, tracker, (p, c) => p === 'gpu' && c === 'chat');
    try {
      await Promise.all([peer.ready, self.ready]);
      peerHealth.get('gpu', 'tts').recordFailure();
      peerHealth.get('gpu', 'chat').recordFailure();
      await vi.waitFor(() => expect(self.stats().received).toBe(2), { timeout: 10_000, interval: 20 });
      await vi.waitFor(
        () => expect(tracker.snapshot(LatencyTracker.key('gpu', 'chat', 'llama')).samples).toBe(1),
        {
          timeout: 10_000,
          interval: 20,
        },
      );
      expect(changes).toEqual(['gpu/chat open fleet']);
      expect(health.snapshot().map((b) => `${b.provider}/${b.capability}`)).toEqual(['gpu/chat']);
      expect(tracker.snapshot(LatencyTracker.key('gpu', 'tts', 'kokoro')).samples).toBe(0);
    } finally {
      await Promise.all([peer.close(), self.close()]);
    }
  }, 30_000);
});
