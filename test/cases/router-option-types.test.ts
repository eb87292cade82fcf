/**
 * A createRouter option of the wrong type: `fetch: 'not a function'` was accepted, and every
 * call then failed as a provider's "Network error", charged to every provider until each
 * breaker opened; `random: 'x'` and `clock: {}` threw raw TypeErrors from inside the first call.
 * Each such option is now a TypeError naming it from createRouter, before any provider is
 * contacted; the right types are accepted.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import { ONE_PROVIDER_CONFIG } from '../helpers/mock-providers.js';

describe('createRouter: options of the wrong type are a TypeError naming them', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'fetch as a string',
      { fetch: 'not a function' },
      'createRouter: options.fetch must be a function, got string',
    ],
    [
      'WebSocket as an object',
      { WebSocket: {} },
      'createRouter: options.WebSocket must be a function, got an object (Object)',
    ],
    ['random as a string', { random: 'x' }, 'createRouter: options.random must be a function, got string'],
    ['random as a number', { random: 0.5 }, 'createRouter: options.random must be a function, got number'],
    [
      'clock as an empty object',
      { clock: {} },
      'createRouter: options.clock must be an object with the functions now, setTimeout and clearTimeout (Clock), got one without now, setTimeout, clearTimeout',
    ],
    [
      'clock without clearTimeout',
      { clock: { now: () => 0, setTimeout: () => 0 } },
      'createRouter: options.clock must be an object with the functions now, setTimeout and clearTimeout (Clock), got one without clearTimeout',
    ],
    [
      'clock as a function',
      { clock: () => 0 },
      'createRouter: options.clock must be an object with the functions now, setTimeout and clearTimeout (Clock), got function',
    ],
    [
      'env as a string',
      { env: 'KEY=1' },
      'createRouter: options.env must be an object of environment variables, got string',
    ],
  ];
  for (const [name, options, message] of cases)
    it(name, () => {
      let caught: unknown;
      try {
        createRouter(ONE_PROVIDER_CONFIG, options as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(TypeError);
      expect((caught as Error).message).toBe(message);
    });

  it('the right types, and undefined, are accepted', async () => {
    const clock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} };
    const router = createRouter(ONE_PROVIDER_CONFIG, {
      fetch: globalThis.fetch,
      random: Math.random,
      clock,
      env: {},
      WebSocket: undefined,
    });
    expect(typeof router.tts).toBe('function');
    await router.close();
  });
});
