import { describe, expect, it } from 'vitest';
import type { FleetEvent, FleetHealth, FleetHealthDeps, FleetStats } from '../../src/fleet/fleet-health.js';
import { lazyFleet } from '../../src/fleet/lazy-fleet.js';
import { deferred } from '../helpers/deferred.js';

const STATS: FleetStats = {
  state: 'ready',
  published: 3,
  received: 2,
  dropped: 1,
  ignored: 0,
  errors: 0,
  lastError: undefined,
};

/** A FleetHealth class that records what is done with it in `log`; its `ready` is `connected`. */
function fakeFleet(log: string[], connected: Promise<void>): typeof FleetHealth {
  class Fake {
    readonly ready = connected;
    constructor(deps: FleetHealthDeps) {
      log.push(`made for ${deps.config.url}`);
    }
    stats(): FleetStats {
      return { ...STATS };
    }
    async close(): Promise<void> {
      log.push('closed');
    }
  }
  return Fake as unknown as typeof FleetHealth;
}

function deps(events: FleetEvent[], warnings: unknown[]): FleetHealthDeps {
  return {
    config: { store: 'redis', url: 'redis://127.0.0.1:1/0', keyPrefix: 'voxroute:' },
    health: {} as FleetHealthDeps['health'],
    tracker: {} as FleetHealthDeps['tracker'],
    clock: {} as FleetHealthDeps['clock'],
    onEvent: (e) => events.push(e),
    logger: { warn: (message, attributes) => warnings.push([message, attributes]) },
  };
}

const CONNECTING: FleetStats = {
  state: 'connecting',
  published: 0,
  received: 0,
  dropped: 0,
  ignored: 0,
  errors: 0,
  lastError: undefined,
};

describe('lazyFleet', () => {
  it("says 'connecting' until its code has loaded, then is the FleetHealth made from the deps", async () => {
    const log: string[] = [];
    const load = deferred<typeof FleetHealth>();
    const connected = deferred<void>();
    const fleet = lazyFleet(() => load.promise, deps([], []));
    expect(fleet.stats()).toEqual(CONNECTING);
    let ready = false;
    void fleet.ready.then(() => {
      ready = true;
    });
    load.resolve(fakeFleet(log, connected.promise));
    await load.promise;
    await Promise.resolve();
    expect(log).toEqual(['made for redis://127.0.0.1:1/0']);
    expect(fleet.stats()).toEqual(STATS);
    // `ready` is the FleetHealth's: it waits for the store.
    expect(ready).toBe(false);
    connected.resolve();
    await fleet.ready;
    expect(ready).toBe(true);
    await fleet.close();
    expect(log).toEqual(['made for redis://127.0.0.1:1/0', 'closed']);
  });

  it("a failed load turns shared health off: 'unavailable', one error event, one warning; ready resolves", async () => {
    const events: FleetEvent[] = [];
    const warnings: unknown[] = [];
    const cause = new Error('Cannot find module deferred-code-XXXX.js');
    const fleet = lazyFleet(() => Promise.reject(cause), deps(events, warnings));
    await fleet.ready;
    const message =
      'the fleet code could not be loaded (is the voxroute install complete? After a passing failure such as EMFILE, restart the process: ' +
      'Node before 24 does not load a failed module again)';
    expect(fleet.stats()).toEqual({ ...CONNECTING, state: 'unavailable', errors: 1, lastError: message });
    expect(events).toEqual([{ type: 'error', error: message }]);
    expect(warnings).toEqual([[`Fleet-shared health is off: ${message}`, { error: String(cause) }]]);
    await fleet.close();
    expect(fleet.stats().state).toBe('closed');
    expect(events).toHaveLength(1);
  });

  it('close() before the load has ended: no FleetHealth is made, and no event follows', async () => {
    const log: string[] = [];
    const events: FleetEvent[] = [];
    const load = deferred<typeof FleetHealth>();
    const fleet = lazyFleet(() => load.promise, deps(events, []));
    await fleet.close();
    expect(fleet.stats()).toEqual({ ...CONNECTING, state: 'closed' });
    load.resolve(fakeFleet(log, Promise.resolve()));
    await fleet.ready;
    expect(log).toEqual([]);
    expect(fleet.stats().state).toBe('closed');
    expect(events).toEqual([]);
  });
});
