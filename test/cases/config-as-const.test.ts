/**
 * A config written `as const` (every array readonly) is accepted by the config types:
 * `createRouter`, `defineConfig`, `parseConfig` and `startMockProviders` take it, with
 * `routes.*.providers` and ElevenLabs `chunkLengthSchedule` as readonly arrays. Before, it failed
 * to compile (TS2345, `readonly string[]` into `string[]`). The types change only: parsing
 * still rejects what it rejected. The compile-time half of this file is checked by `tsc`.
 */

import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ConfigError,
  createRouter,
  defineConfig,
  parseConfig,
  type RouteConfig,
  type RouterConfig,
} from '../../src/index.js';
import { startMockProviders } from '../../src/testing/index.js';

const CONFIG = {
  providers: {
    a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', chat: { models: { fast: 'm' } } },
    voice: {
      kind: 'elevenlabs',
      apiKey: { env: 'ELEVEN_KEY' },
      tts: { voices: { agent: 'v1' }, chunkLengthSchedule: [120, 160] },
    },
  },
  routes: { chat: { providers: ['a'] }, tts: { providers: ['voice'] } },
} as const;

describe('a config written as const', () => {
  it('type-checks where a RouterConfig is taken; mutable arrays still do', () => {
    expectTypeOf(CONFIG).toExtend<RouterConfig>();
    expectTypeOf<{ providers: string[] }>().toExtend<RouteConfig>();
    expectTypeOf<{ providers: readonly ['a', 'b'] }>().toExtend<RouteConfig>();
    expectTypeOf(defineConfig(CONFIG).routes).toExtend<RouterConfig['routes']>();
  });

  it('creates a router and starts mocks from it, with the same parsed values', async () => {
    const resolved = parseConfig(CONFIG, { env: { ELEVEN_KEY: 'k' } });
    expect(resolved.routes.chat!.providers).toEqual(['a']);
    const voice = resolved.providers.voice!;
    if (voice.kind !== 'elevenlabs') throw new Error(`expected elevenlabs, got ${voice.kind}`);
    expect(voice.tts?.chunkLengthSchedule).toEqual([120, 160]);
    const router = createRouter(CONFIG, { env: { ELEVEN_KEY: 'k' } });
    await router.close();
    const mocks = await startMockProviders(CONFIG);
    try {
      expect(Object.keys(mocks.mocks).sort()).toEqual(['a', 'voice']);
    } finally {
      await mocks.close();
    }
  });

  it('is validated as before: an empty readonly providers list is a ConfigError', () => {
    const empty = { providers: CONFIG.providers, routes: { chat: { providers: [] } } } as const;
    let caught: unknown;
    try {
      parseConfig(empty, { env: { ELEVEN_KEY: 'k' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toContain('must name at least one provider');
  });
});
