import { describe, expect, it, vi } from 'vitest';
import { createRouter, type FleetEvent } from '../../src/index.js';

// ioredis as if not installed: its import fails the way a missing package does.
vi.mock('ioredis', () => {
  throw Object.assign(new Error("Cannot find package 'ioredis'"), { code: 'ERR_MODULE_NOT_FOUND' });
});

const PASSWORD = 'hunter2SECRETpw';

function healthConfig() {
  return {
    providers: {
      gpu: {
        kind: 'openai-compatible' as const,
        baseUrl: 'http://127.0.0.1:9/v1',
        chat: { models: { f: 'm' } },
      },
    },
    routes: { chat: { providers: ['gpu'] } },
    health: { store: 'redis' as const, url: `redis://:${PASSWORD}@127.0.0.1:1/0` },
  };
}

describe('fleet-shared health without ioredis installed', () => {
  it('logs one warning through the router logger naming the package and how to install it, with no secret', async () => {
    const logs: Array<[string, unknown]> = [];
    const logger = { warn: (message: string, attributes?: unknown) => logs.push([message, attributes]) };
    const router = createRouter(healthConfig(), { logger });
    const event = await new Promise<FleetEvent>((resolve) => {
      const off = router.on('fleet', (e) => {
        off();
        resolve(e);
      });
    });
    const message =
      'the config has a `health` section but the optional package ioredis is not installed: npm install ioredis';
    expect(event).toEqual({ type: 'error', error: message });
    expect(router.stats().fleet?.state).toBe('unavailable');
    // One line, at warn, as soon as the store is known to be unusable (not on a call).
    expect(logs).toEqual([[`Fleet-shared health is off: ${message}`, undefined]]);
    // A call afterwards (its provider refuses the connection) logs nothing more about the store.
    await expect(
      (async () => {
        for await (const _ of router.chat({ messages: [{ role: 'user', content: 'x' }], model: 'f' }));
      })(),
    ).rejects.toThrow();
    await router.close();
    expect(logs).toEqual([[`Fleet-shared health is off: ${message}`, undefined]]);
    expect(JSON.stringify(logs)).not.toContain(PASSWORD);
  });

  it('without a logger: one process warning (code VOXROUTE_FLEET_HEALTH_OFF) for the whole process, with no secret', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => {
      if ((warning as { code?: string }).code === 'VOXROUTE_FLEET_HEALTH_OFF') warnings.push(warning);
    };
    process.on('warning', onWarning);
    const routers: Array<ReturnType<typeof createRouter>> = [];
    try {
      const first = new Promise<void>((resolve) => process.once('warning', () => resolve()));
      routers.push(createRouter(healthConfig()));
      await first;
      expect(warnings.map((w) => [w.name, w.message])).toEqual([
        [
          'Warning',
          'Fleet-shared health is off: the config has a `health` section but the optional package ioredis is not installed: npm install ioredis',
        ],
      ]);
      // A second router of the process finds ioredis missing too: its fleet event says so, and
      // no second warning follows (emitWarning emits on the next tick: one turn of the loop).
      const second = createRouter(healthConfig());
      routers.push(second);
      const event = await new Promise<FleetEvent>((resolve) => second.on('fleet', resolve));
      expect(event.type).toBe('error');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]!.stack)).not.toContain(PASSWORD);
    } finally {
      process.off('warning', onWarning);
      for (const router of routers) await router.close();
    }
  });
});
