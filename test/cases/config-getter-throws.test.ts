/**
 * A config object a field of which cannot be read: a getter that throws (own, non-enumerable or
 * inherited from a class), a Proxy whose trap throws. createRouter and parseConfig give a
 * ConfigError with one issue at that field's path quoting what reading it threw (with anything
 * shaped like a key taken out), that error as the cause; never the raw error.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, createRouter, parseConfig } from '../../src/index.js';

/** A valid config, loosely typed so that a test can put a getter or a Proxy anywhere in it. */
interface LooseConfig {
  providers: Record<string, object>;
  routes: Record<string, { providers: unknown }>;
}

function base(): LooseConfig {
  return {
    providers: {
      a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', chat: { models: { m: 'x' } } },
    },
    routes: { chat: { providers: ['a'] } },
  };
}

/** The ConfigError `f` throws (fails when it throws anything else, or nothing). */
function configError(f: () => unknown): ConfigError {
  try {
    f();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('a config field whose reading throws', () => {
  it('an own getter: ConfigError at its path, from createRouter and parseConfig', () => {
    const boom = new Error('x');
    const config = base();
    Object.defineProperty(config.providers.a, 'apiKey', {
      enumerable: true,
      get() {
        throw boom;
      },
    });
    for (const f of [() => createRouter(config as never), () => parseConfig(config)]) {
      const error = configError(f);
      expect(error.issues).toEqual([
        { path: ['providers', 'a', 'apiKey'], message: 'cannot be read: reading it threw (Error: x)' },
      ]);
      expect(error.message).toBe(
        'Invalid voxroute config:\n  providers.a.apiKey: cannot be read: reading it threw (Error: x)',
      );
      expect(error.cause).toBe(boom);
    }
  });

  it('an object literal getter, and a getter on the root', () => {
    const config = base();
    config.providers.a = {
      ...config.providers.a,
      get apiKey(): string {
        throw new TypeError('vault locked');
      },
    };
    expect(configError(() => createRouter(config as never)).issues).toEqual([
      {
        path: ['providers', 'a', 'apiKey'],
        message: 'cannot be read: reading it threw (TypeError: vault locked)',
      },
    ]);
    const root = base();
    Object.defineProperty(root, 'routes', {
      enumerable: false,
      get() {
        throw new Error('no routes yet');
      },
    });
    expect(configError(() => parseConfig(root)).issues).toEqual([
      { path: ['routes'], message: 'cannot be read: reading it threw (Error: no routes yet)' },
    ]);
  });

  it("a class's getter, an array item's getter, a Proxy whose trap throws", () => {
    class Provider {
      kind = 'openai-compatible';
      baseUrl = 'http://127.0.0.1:1/v1';
      chat = { models: { m: 'x' } };
      get headers(): Record<string, string> {
        throw new Error('headers unavailable');
      }
    }
    const byClass = base();
    byClass.providers.a = new Provider();
    expect(configError(() => parseConfig(byClass)).issues).toEqual([
      {
        path: ['providers', 'a', 'headers'],
        message: 'cannot be read: reading it threw (Error: headers unavailable)',
      },
    ]);
    const inArray = base();
    const list = ['a'];
    Object.defineProperty(list, 0, {
      enumerable: true,
      get() {
        throw new Error('item');
      },
    });
    inArray.routes.chat!.providers = list;
    expect(configError(() => parseConfig(inArray)).issues).toEqual([
      { path: ['routes', 'chat', 'providers', 0], message: 'cannot be read: reading it threw (Error: item)' },
    ]);
    const proxied = base();
    proxied.routes = new Proxy(proxied.routes, {
      ownKeys() {
        throw new Error('trap');
      },
    });
    expect(configError(() => parseConfig(proxied)).issues).toEqual([
      { path: ['routes'], message: 'cannot be read: reading it threw (Error: trap)' },
    ]);
  });

  it('a key-shaped value in what the getter threw is not quoted', () => {
    const key = `${'sk-'}proj-${'Zq7Xw2Rt9Vb4Nm6Lp8Kj3Hg5Fd1Sa0'}`;
    const config = base();
    Object.defineProperty(config.providers.a, 'apiKey', {
      enumerable: true,
      get() {
        throw new Error(`key ${key} expired`);
      },
    });
    const error = configError(() => createRouter(config as never));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'a', 'apiKey'],
        message: 'cannot be read: reading it threw (Error: key [redacted] expired)',
      },
    ]);
    expect(error.message).not.toContain(key.slice(0, 16));
    expect(String((error.cause as Error).message)).not.toContain(key.slice(0, 16));
  });
});
