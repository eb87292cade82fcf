/**
 * Common slips when creating a router: an un-awaited loadConfig, a missing config path and a
 * mistyped option key each fail at once with an error that says which slip it is.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, createRouter, loadConfig, parseConfig, type RouterConfig } from '../../src/index.js';

const CONFIG: RouterConfig = {
  providers: {
    a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
  },
  routes: { chat: { providers: ['a'] } },
};

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

describe('createRouter and loadConfig: common slips', () => {
  it('createRouter(promise) (loadConfig not awaited): a ConfigError saying so, one issue', () => {
    const error = thrown(() => createRouter(Promise.resolve(CONFIG) as never));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      'Invalid voxroute config:\n  (root): expected an object, got a Promise: did you forget `await loadConfig(...)`?',
    );
    expect((error as ConfigError).issues).toEqual([
      { path: [], message: 'expected an object, got a Promise: did you forget `await loadConfig(...)`?' },
    ]);
    expect(thrown(() => parseConfig(Promise.resolve(CONFIG))).message).toBe(error.message);
  });

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'number'],
    ['', 'an empty string'],
  ])('loadConfig(%j): a TypeError naming the path argument', async (path, got) => {
    const error = (await loadConfig(path as never).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      `loadConfig: path must be the config file's path, e.g. 'voxroute.config.ts', got ${got}`,
    );
  });

  it('an unknown option key is a TypeError naming it, with a did-you-mean', () => {
    const error = thrown(() => createRouter(CONFIG, { fetchh: fetch } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      "createRouter: unknown option 'fetchh' (did you mean 'fetch'?); the options are fetch, WebSocket, ca, clock, logger, random, env, resampleOffload",
    );
  });

  it('an unknown option key far from any: named, no suggestion', () => {
    expect(thrown(() => createRouter(CONFIG, { timeoutMs: 5 } as never)).message).toBe(
      "createRouter: unknown option 'timeoutMs'; the options are fetch, WebSocket, ca, clock, logger, random, env, resampleOffload",
    );
  });

  it('options that are not an object: a TypeError', () => {
    const error = thrown(() => createRouter(CONFIG, 'fast' as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('createRouter: options must be an object (RouterOptions), got string');
  });

  it('every RouterOptions key is accepted, also when undefined', async () => {
    const router = createRouter(CONFIG, {
      fetch: undefined,
      WebSocket: undefined,
      ca: undefined,
      clock: undefined,
      logger: { warn: () => {} },
      random: () => 0.5,
      env: {},
      resampleOffload: undefined,
    });
    expect(router.stats().providers).toEqual([]);
    await router.close();
  });

  it.each([
    [-1, '-1'],
    [1.5, '1.5'],
    ['32', 'string'],
    [true, 'boolean'],
  ])('resampleOffload %j is a TypeError naming it', (value, shape) => {
    expect(() => createRouter(CONFIG, { resampleOffload: value as number })).toThrow(TypeError);
    expect(() => createRouter(CONFIG, { resampleOffload: value as number })).toThrow(
      `createRouter: options.resampleOffload must be false or an integer from 0 (streams), got ${shape}`,
    );
  });

  it('resampleOffload false, 0 and 100 are accepted', async () => {
    for (const resampleOffload of [false, 0, 100] as const)
      await createRouter(CONFIG, { resampleOffload }).close();
  });
});
