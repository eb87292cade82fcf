import type { ResolvedConfig } from '../../src/config/types.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import type { CapabilityCall } from '../../src/routing/capability.js';
import { HealthRegistry } from '../../src/routing/health/index.js';
import type { HedgeLedger } from '../../src/routing/hedge-ledger.js';
import type { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { RoutePlanner, type SharedRunParts } from '../../src/routing/planner.js';
import type { CallOptions } from '../../src/types/requests.js';

/**
 * A RoutePlanner of a chat route over chat-only adapters named `providers`, reading `tracker`
 * at `now()` (a clock that sets no timers), and `plan(options)`: one call planned, its
 * providers in order with their hedge delays (ms) and the route's hedge ledger.
 */
export function chatPlanner(
  config: ResolvedConfig,
  tracker: LatencyTracker,
  now: () => number,
  providers: string[],
) {
  const clock = { now, setTimeout: () => 0, clearTimeout: () => {} };
  const adapters = new Map<string, ProviderAdapter>(
    providers.map((name) => [name, { chat: {} } as unknown as ProviderAdapter]),
  );
  const shared = { clock, tracker } as unknown as SharedRunParts;
  const planner = new RoutePlanner(config, adapters, shared, new HealthRegistry({ clock }), undefined);
  const call = {
    capability: 'chat',
    candidate: () => ({ model: 'x', start: () => Promise.reject(new Error('not started in this test')) }),
  } as unknown as CapabilityCall<unknown, 'chat'>;
  return (options: CallOptions = {}) => {
    const run = planner.plan(call, options);
    return {
      order: run.candidates.map((c) => c.provider),
      hedgeAfterMs: run.candidates.map((c) => c.hedgeAfterMs),
      ledger: run.hedgeBudget as HedgeLedger,
    };
  };
}
