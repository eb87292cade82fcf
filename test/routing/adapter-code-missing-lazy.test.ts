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
});
