/**
 * A router over two of voxroute's OpenAI-compatible mocks on loopback ports, for the tests of
 * the integrations (AI SDK, LiveKit). Not in ./index.ts: importing it loads the testing kit and
 * closes what a test started when that test ends.
 */
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMock,
  type OpenAiCompatibleMockOptions,
  startMockServer,
} from '../../src/testing/index.js';
import { closeAfterTest } from './close-after-test.js';

/** Closes what a test started, when it ends (see closeAfterTest). */
const closeLater = closeAfterTest();

/**
 * Two OpenAI-compatible mocks `a` and `b` on loopback, and a router with `a` first on the
 * `chat`, `tts` and `stt` routes; `chat-b`, `tts-b` and `stt-b` call `b` only. Voices `agent`
 * and `narrator`, model `fast`. All are closed after each test.
 */
export async function twoProviders(a: OpenAiCompatibleMockOptions = {}, b: OpenAiCompatibleMockOptions = {}) {
  const mocks = { a: createOpenAiCompatibleMock(a), b: createOpenAiCompatibleMock(b) };
  const servers = await Promise.all([
    startMockServer({ provider: mocks.a }),
    startMockServer({ provider: mocks.b }),
  ]);
  for (const s of servers) closeLater(() => s.close());
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
  closeLater(() => router.close());
  return { router, a: mocks.a as OpenAiCompatibleMock, b: mocks.b as OpenAiCompatibleMock };
}

/** A mock script under which every request fails with HTTP 503. */
export const ALWAYS_503 = { failTimes: 1000, failStatus: 503 } as const;
