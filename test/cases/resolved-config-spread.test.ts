/**
 * A spread copy of a resolved config: `{ ...resolved, routes: { ...resolved.routes, tts: {...} } }`
 * (tweaking one route of a loadConfig or startMockProviders result for a test) lost the resolved
 * mark and was parsed as a raw config, where every route's `name` (the resolved config's copy
 * of its key) was an unknown key. A route's `name` is now accepted when it is the route's key,
 * and is a ConfigError at its path otherwise; the copy builds a working router.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createRouter, parseConfig, type Router } from '../../src/index.js';
import { startMockProviders } from '../../src/testing/index.js';

const CONFIG = {
  providers: {
    a: {
      kind: 'openai-compatible' as const,
      baseUrl: 'http://127.0.0.1:1/v1',
      tts: { voices: { agent: 'v' } },
    },
    b: {
      kind: 'openai-compatible' as const,
      baseUrl: 'http://127.0.0.1:1/v1',
      tts: { voices: { agent: 'w' } },
    },
  },
  routes: { tts: { providers: ['a', 'b'] }, backup: { capability: 'tts' as const, providers: ['b'] } },
};

describe('resolved config spread', () => {
  let router: Router | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await router?.close();
    await close?.();
    router = undefined;
    close = undefined;
  });

  it('a spread copy with one route changed parses, keeps the change, and routes by it', async () => {
    const mocks = await startMockProviders(CONFIG);
    close = () => mocks.close();
    const resolved = mocks.config;
    const tweaked = {
      ...resolved,
      routes: {
        ...resolved.routes,
        tts: { ...resolved.routes.tts!, providers: ['b'], strategy: 'priority' as const },
      },
    };
    const parsed = parseConfig(tweaked);
    expect(parsed.routes.tts).toMatchObject({ name: 'tts', providers: ['b'], strategy: 'priority' });
    expect(parsed.routes.backup!.name).toBe('backup');
    router = createRouter(tweaked);
    const stream = router.tts({ text: 'Hello.', voice: 'agent' });
    for await (const _chunk of stream) {
      // read to the end
    }
    expect((await stream.result).provider).toBe('b');
    expect(mocks.mocks.a!.requests).toHaveLength(0);
  });

  it("a route copied under another key with its old name is a ConfigError at that route's name", () => {
    const resolved = parseConfig(CONFIG);
    const moved = { ...resolved, routes: { ...resolved.routes, premium: { ...resolved.routes.backup! } } };
    let caught: unknown;
    try {
      parseConfig(moved);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).issues).toEqual([
      {
        path: ['routes', 'premium', 'name'],
        message: `is "backup", not this route's key "premium" (a route's name is its key: leave it out)`,
      },
    ]);
  });

  it('a raw config may give a route its own key as name; any other string is refused, a number is a type error', () => {
    expect(
      parseConfig({ ...CONFIG, routes: { tts: { name: 'tts', providers: ['a'] } } }).routes.tts!.name,
    ).toBe('tts');
    const issues = (input: unknown) => {
      try {
        parseConfig(input as never);
      } catch (error) {
        return (error as ConfigError).issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      }
      return [];
    };
    expect(issues({ ...CONFIG, routes: { tts: { name: 'speech', providers: ['a'] } } })).toEqual([
      `routes.tts.name: is "speech", not this route's key "tts" (a route's name is its key: leave it out)`,
    ]);
    expect(issues({ ...CONFIG, routes: { tts: { name: 7, providers: ['a'] } } })).toHaveLength(1);
    expect(issues({ ...CONFIG, routes: { tts: { name: 7, providers: ['a'] } } })[0]).toMatch(
      /^routes\.tts\.name: /,
    );
  });
});
