/**
 * `router.warmup()` opens a keep-alive connection to each provider's origin with an `OPTIONS /`
 * that carries no credentials. The mocks answer it with an empty 204 and leave it out of
 * `requests`, so the documented CI assertion (`requests.map((r) => r.endpoint)` is exactly the
 * app's own calls) holds for an app that warms its router. Before, each warmed mock recorded
 * an `OPTIONS /` with endpoint 'unknown' and status 401.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import { type MockProviders, startMockProviders } from '../../src/testing/index.js';

const CONFIG: RouterConfig = {
  providers: {
    openai: {
      kind: 'openai-compatible',
      baseUrl: 'http://10.0.0.5:8000/v1',
      chat: { models: { fast: 'm' } },
    },
    claude: { kind: 'anthropic', apiKey: 'unused', chat: { models: { fast: 'claude-m' } } },
  },
  routes: { chat: { providers: ['openai', 'claude'] } },
};

let mocks: MockProviders | undefined;
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  await mocks?.close();
  router = undefined;
  mocks = undefined;
});

async function collect(stream: AsyncIterable<{ type: string }>): Promise<string[]> {
  const types: string[] = [];
  for await (const event of stream) types.push(event.type);
  return types;
}

describe('warmup is not a recorded request', () => {
  it('warmup then one chat: the endpoints recorded are exactly chat, and none on the fallback', async () => {
    mocks = await startMockProviders(CONFIG, { providers: { openai: { chat: 'Hello.' } } });
    router = createRouter(mocks.config);
    await router.warmup();
    expect(mocks.mocks.openai!.requests).toEqual([]);
    expect(mocks.mocks.claude!.requests).toEqual([]);
    const types = await collect(
      router.chat({ route: 'chat', model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(types.at(-1)).toBe('finish');
    expect(mocks.mocks.openai!.requests.map((r) => r.endpoint)).toEqual(['chat']);
    expect(mocks.mocks.openai!.requests.map((r) => [r.method, r.status])).toEqual([['POST', 200]]);
    expect(mocks.mocks.claude!.requests).toEqual([]);
  });

  it('a mock answers OPTIONS / without credentials with an empty 204 and records nothing', async () => {
    mocks = await startMockProviders(CONFIG);
    for (const name of ['openai', 'claude']) {
      const response = await fetch(`${mocks.mocks[name]!.url}/`, { method: 'OPTIONS' });
      expect([name, response.status, await response.text()]).toEqual([name, 204, '']);
      expect(mocks.mocks[name]!.requests).toEqual([]);
    }
  });
});
