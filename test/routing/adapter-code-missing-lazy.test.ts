/**
 * When the adapters' code cannot be loaded (a damaged install), a call ends with a VoxrouteError
 * naming the cause, and no provider is charged: no error in its stats, no breaker opened.
 * (A file of its own, run in a fresh module graph: it replaces the adapters' module.)
 */
import { describe, expect, it, vi } from 'vitest';
import { createRouter, VoxrouteError } from '../../src/index.js';

vi.mock('../../src/providers/adapters.js', () => {
  throw new Error('Cannot find module adapters-XXXX.js');
});

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
    expect((thrown as Error).message).toBe(
      "The adapter code of provider 'a' could not be loaded (is the voxroute install complete?)",
    );
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
    const message = 'the fleet code could not be loaded (is the voxroute install complete?)';
    expect(router.stats().fleet).toEqual({
      state: 'unavailable',
      published: 0,
      received: 0,
      dropped: 0,
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
});
