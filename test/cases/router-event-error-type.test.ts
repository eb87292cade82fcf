/**
 * The `fallback` and `error` router events carry `error` typed as VoxrouteError (every error the
 * router emits is normalized to one), so `router.on('fallback', (e) => e.error.code)` compiles
 * without a cast. Before, `error` was `unknown` (TS18046). The compile-time half is checked by
 * `tsc`; the run shows the codes a listener reads.
 */

import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createRouter,
  type Router,
  type RouterConfig,
  type RouterEvents,
  type VoxrouteError,
} from '../../src/index.js';
import { type MockProviders, startMockProviders } from '../../src/testing/index.js';

const CONFIG: RouterConfig = {
  providers: {
    a: { kind: 'openai-compatible', baseUrl: 'http://10.0.0.5:8000/v1', chat: { models: { fast: 'm' } } },
    b: { kind: 'openai-compatible', baseUrl: 'http://10.0.0.6:8000/v1', chat: { models: { fast: 'm' } } },
  },
  routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
};

let mocks: MockProviders | undefined;
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  await mocks?.close();
});

describe('router event errors are VoxrouteErrors', () => {
  it('types error as VoxrouteError on fallback and error', () => {
    expectTypeOf<RouterEvents['fallback']['error']>().toEqualTypeOf<VoxrouteError>();
    expectTypeOf<RouterEvents['error']['error']>().toEqualTypeOf<VoxrouteError>();
  });

  it('a listener reads e.error.code with no cast', async () => {
    mocks = await startMockProviders(CONFIG, {
      providers: { a: { script: { chat: { failTimes: 1, failStatus: 503 } } }, b: { chat: 'Hi.' } },
    });
    router = createRouter(mocks.config);
    const seen: string[] = [];
    router.on('error', (e) => seen.push(`error ${e.provider} ${e.error.code} ${e.error.name}`));
    router.on('fallback', (e) => seen.push(`fallback ${e.provider}->${e.next} ${e.error.code}`));
    for await (const _ of router.chat({
      route: 'chat',
      model: 'fast',
      messages: [{ role: 'user', content: 'hi' }],
    })) {
      // drain
    }
    expect(seen).toEqual(['error a PROVIDER_ERROR ProviderError', 'fallback a->b PROVIDER_ERROR']);
  });
});
