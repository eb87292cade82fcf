/**
 * Shared setup of the AI SDK tests: the real `ai` package (loaded only where it can run) over a
 * router whose providers are voxroute's OpenAI-compatible mocks on loopback ports.
 */
import { afterEach, describe, it } from 'vitest';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMock,
  type OpenAiCompatibleMockOptions,
  startMockServer,
} from '../../src/testing/index.js';

const major = Number(process.versions.node.split('.')[0]);

/** `ai` 7 declares engines node >= 22 (and uses APIs of it): its tests run on Node 22 and later. */
export const AI_SDK_RUNS = major >= 22;

/**
 * `describe` where `ai` runs; elsewhere one test that skips with the reason as its note, so a
 * Node 20 run names the reason in its output (the suite's own tests are not even declared).
 */
export function describeAiSdk(title: string, body: () => void): void {
  if (AI_SDK_RUNS) {
    describe(title, body);
    return;
  }
  describe(title, () => {
    it('runs on Node >= 22 only', (ctx) => {
      const reason = `ai 7 needs Node >= 22; this is Node ${process.versions.node}`;
      // The default reporter does not print skip notes; stderr of a test it does print.
      console.warn(`skipped "${title}": ${reason}`);
      ctx.skip(reason);
    });
  });
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Two OpenAI-compatible mocks `a` and `b` on loopback, and a router with `a` first on every route. */
export async function twoProviders(a: OpenAiCompatibleMockOptions = {}, b: OpenAiCompatibleMockOptions = {}) {
  const mocks = { a: createOpenAiCompatibleMock(a), b: createOpenAiCompatibleMock(b) };
  const servers = await Promise.all([
    startMockServer({ provider: mocks.a }),
    startMockServer({ provider: mocks.b }),
  ]);
  for (const s of servers) closers.push(() => s.close());
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'llama-8b' } },
    tts: { voices: { agent: 'af_heart', narrator: 'am_onyx' } },
    stt: { model: 'whisper' },
  });
  const config: RouterConfig = {
    providers: { a: provider(servers[0]!.url), b: provider(servers[1]!.url) },
    routes: {
      chat: { providers: ['a', 'b'], strategy: 'priority' },
      tts: { providers: ['a', 'b'], strategy: 'priority' },
      stt: { providers: ['a', 'b'], strategy: 'priority' },
      'chat-b': { capability: 'chat', providers: ['b'], strategy: 'priority' },
      'tts-b': { capability: 'tts', providers: ['b'], strategy: 'priority' },
      'stt-b': { capability: 'stt', providers: ['b'], strategy: 'priority' },
    },
  };
  const router: Router = createRouter(config);
  closers.push(() => router.close());
  return { router, a: mocks.a as OpenAiCompatibleMock, b: mocks.b as OpenAiCompatibleMock };
}

/** A mock script under which every request fails with HTTP 503. */
export const ALWAYS_503 = { failTimes: 1000, failStatus: 503 } as const;
