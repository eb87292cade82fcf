import { LOAD_FAILED_HINT } from '../internal/lazy.js';
import type { FleetHealth, FleetHealthDeps, FleetStats } from './fleet-health.js';

/** What the router uses of its {@link FleetHealth}. */
export type FleetHandle = Pick<FleetHealth, 'ready' | 'stats' | 'close'>;

/**
 * The router's fleet-shared health, whose code loads in the background with the adapters' (so
 * that `import('voxroute')` compiles none of it): the {@link FleetHealth} is made from `deps` once
 * `load` resolves, which is before any call can reach a provider (a call waits for its adapter's
 * code, loaded by the same import), so no breaker change of this router goes unseen. Until then
 * `stats()` says `'connecting'` with every count 0, and `ready` resolves once the store is
 * connected, or could not be (as FleetHealth's). A failed load (a damaged install) turns shared
 * health off as an unreachable store does: state `'unavailable'`, one `'error'` event, and one
 * warning on the router's logger (the load's error as its `error` attribute). `close()` after
 * the load closes the FleetHealth; before it, none is made (and no event follows).
 */
export function lazyFleet(load: () => Promise<typeof FleetHealth>, deps: FleetHealthDeps): FleetHandle {
  let built: FleetHealth | undefined;
  let closed = false;
  const stats: FleetStats = {
    state: 'connecting',
    published: 0,
    received: 0,
    dropped: 0,
    ignored: 0,
    errors: 0,
    lastError: undefined,
  };
  const ready = load().then(
    (Fleet) => {
      if (closed) return;
      built = new Fleet(deps);
      return built.ready;
    },
    (error: unknown) => {
      if (closed) return;
      const message = `the fleet code could not be loaded ${LOAD_FAILED_HINT}`;
      stats.state = 'unavailable';
      stats.errors = 1;
      stats.lastError = message;
      deps.onEvent({ type: 'error', error: message });
      deps.logger?.warn(`Fleet-shared health is off: ${message}`, { error: String(error) });
    },
  );
  return {
    ready,
    stats: () => (built ? built.stats() : { ...stats }),
    close: async () => {
      closed = true;
      stats.state = 'closed';
      await built?.close();
    },
  };
}
