import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineConfig, parseConfig, type ResolvedConfig, type RouterConfig } from '../../src/config/index.js';

describe('defineConfig', () => {
  it('returns the very object it was given', () => {
    const config: RouterConfig = {
      providers: { a: { kind: 'openai', apiKey: { env: 'K' }, chat: { models: { fast: 'gpt-4o-mini' } } } },
      routes: { chat: { providers: ['a'] } },
    };
    expect(defineConfig(config)).toBe(config);
  });

  it('types the config a user writes and the resolved one', () => {
    defineConfig({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:1/v1',
          // @ts-expect-error unknown key in a provider
          apiKye: 'x',
        },
      },
      routes: {},
    });
    // @ts-expect-error baseUrl is required for openai-compatible
    defineConfig({ providers: { a: { kind: 'openai-compatible' } }, routes: {} });
    // @ts-expect-error strategy is one of 'latency' | 'priority'
    defineConfig({ providers: {}, routes: { tts: { providers: ['a'], strategy: 'fastest' } } });
    const resolved = parseConfig(
      {
        providers: { a: { kind: 'openai', apiKey: { env: 'K' }, chat: { models: { m: 'x' } } } },
        routes: {},
      },
      { env: { K: 'key' } },
    );
    expectTypeOf(resolved).toEqualTypeOf<ResolvedConfig>();
    const a = resolved.providers.a!;
    if (a.kind !== 'openai') throw new Error(`expected kind openai, got ${a.kind}`);
    expectTypeOf(a.apiKey).toEqualTypeOf<string>();
    expectTypeOf(a.headers).toEqualTypeOf<Record<string, string>>();
    expect(a.apiKey).toBe('key');
  });
});
