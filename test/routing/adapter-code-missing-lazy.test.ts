/**
 * When the adapters' code cannot be loaded (a damaged install), a call ends with a VoxrouteError
 * naming the cause and telling the user to restart the process, and no provider is charged: no
 * error in its stats, no breaker opened. warmup() still resolves (it never throws). A router
 * made after the failure fails the same way: the module's failure stays (as Node 20 and 22 keep
 * a failed import()). (A file of its own, run in a fresh module graph: it replaces the adapters' module.)
 */
import { describe, expect, it, vi } from 'vitest';
import { createRouter, VoxrouteError } from '../../src/index.js';

vi.mock('../../src/providers/adapters.js', () => {
  throw new Error('Cannot find module adapters-XXXX.js');
});

const LOAD_FAILED = (provider: string) =>
  `The adapter code of provider '${provider}' could not be loaded (is the voxroute install complete? ` +
  'After a passing failure such as EMFILE, restart the process: Node before 24 does not load a failed module again)';

/** The error that ends `router.tts(...)` (fails when it ends without one). */
async function ttsError(router: ReturnType<typeof createRouter>): Promise<unknown> {
  try {
    for await (const _ of router.tts({ text: 'Hello.', voice: 'agent' })) {
      // no audio expected
    }
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('adapter code that cannot be loaded', () => {
  it('ends the call with a VoxrouteError and charges no provider', async () => {
    const router = createRouter({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9', tts: { voices: { agent: 'v' } } },
        b: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9', tts: { voices: { agent: 'v' } } },
      },
      routes: { tts: { providers: ['a', 'b'] } },
    });
    const breakers: unknown[] = [];
    router.on('breaker', (e) => breakers.push(e));
    let thrown: unknown;
    try {
      for await (const _ of router.tts({ text: 'Hello.', voice: 'agent' })) {
        // no audio expected
      }
    } catch (error) {
      thrown = error;
    }
    expect(VoxrouteError.isInstance(thrown)).toBe(true);
    expect((thrown as VoxrouteError).code).toBe('VOXROUTE_ERROR');
    expect((thrown as Error).message).toBe(LOAD_FAILED('a'));
    // a was tried once, charged nothing; b was never asked (every provider shares the code).
    expect(
      router.stats().providers.map((p) => [p.provider, p.attempts, p.errors, p.samples, p.breaker]),
    ).toEqual([['a', 1, 0, 0, 'closed']]);
    expect(breakers).toEqual([]);
    await router.close();
  });

  it('warmup() and close() still resolve; fleet-shared health is off, said once by event and logger', async () => {
    const warnings: unknown[] = [];
    const router = createRouter(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9', chat: { models: { f: 'm' } } },
        },
        routes: { chat: { providers: ['a'] } },
        health: { store: 'redis', url: 'redis://:hunter2SECRETpw@127.0.0.1:1/0' },
      },
      { logger: { warn: (message, attributes) => warnings.push([message, attributes]) } },
    );
    const events: unknown[] = [];
    router.on('fleet', (e) => events.push(e));
    await router.warmup();
    const message =
      'the fleet code could not be loaded (is the voxroute install complete? After a passing failure such as EMFILE, restart the process: ' +
      'Node before 24 does not load a failed module again)';
    expect(router.stats().fleet).toEqual({
      state: 'unavailable',
      published: 0,
      received: 0,
      dropped: 0,
      ignored: 0,
      errors: 1,
      lastError: message,
    });
    expect(events).toEqual([{ type: 'error', error: message }]);
    // The load's error as an attribute (here the test runner's report of the failed mock).
    expect(warnings).toEqual([
      [`Fleet-shared health is off: ${message}`, { error: expect.stringMatching(/^Error: /) }],
    ]);
    expect(JSON.stringify(warnings)).not.toContain('hunter2SECRETpw');
    await router.close();
    expect(router.stats().fleet?.state).toBe('closed');
  });

  it('warmup() resolves, and a router made later fails its calls the same way (restart the process)', async () => {
    const config = {
      providers: {
        c: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9', tts: { voices: { agent: 'v' } } },
      },
      routes: { tts: { providers: ['c'], connectTimeoutMs: 50 } },
    } as const;
    for (let i = 0; i < 2; i++) {
      const router = createRouter(config);
      await expect(router.warmup()).resolves.toBeUndefined();
      const error = await ttsError(router);
      expect(VoxrouteError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(LOAD_FAILED('c'));
      expect((error as Error).cause).toBeInstanceOf(Error);
      await router.close();
    }
  });
});
