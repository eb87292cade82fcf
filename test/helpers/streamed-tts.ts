/**
 * Streamed-text TTS through the router: an LLM's tokens, and a route of one streaming-input
 * provider's mock with an OpenAI-compatible backup, both on loopback ports. Not in ./index.ts:
 * importing it loads the testing kit. What a setup starts is closed when the test finishes.
 */
import { onTestFinished } from 'vitest';
import {
  createRouter,
  type ProviderConfig,
  type RouteConfig,
  type Router,
  type RouterOptions,
} from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type MockProvider,
  type OpenAiCompatibleMock,
  startMockServer,
} from '../../src/testing/index.js';
import { LLM_TOKENS } from './llm-tokens.js';

export { LLM_TOKENS };

/** {@link LLM_TOKENS} as an async iterable, all at once. */
export async function* llmTokens(): AsyncGenerator<string> {
  for (const t of LLM_TOKENS) yield t;
}

/** PCM s16le, 24000 Hz, mono. */
export const PCM24 = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;

/** The primary of a {@link startWithBackup} route. */
export interface Primary<M extends MockProvider> {
  /** Provider name in the config, e.g. `'sonic'`. */
  name: string;
  mock: M;
  /** The provider's config, given the mock's origin (`http://127.0.0.1:PORT`). */
  config(url: string): ProviderConfig;
}

/**
 * Serves `primary.mock` and an OpenAI-compatible mock `ec2` (voice `agent`: `af_heart`), and
 * makes a router whose `tts` route is `[primary, 'ec2']`, strategy `priority`, midStream
 * `resume`, plus `route`'s fields. Router and servers close when the test finishes.
 */
export async function startWithBackup<M extends MockProvider>(
  primary: Primary<M>,
  route: Partial<RouteConfig> = {},
  options: RouterOptions = {},
): Promise<{ router: Router; primary: M; ec2: OpenAiCompatibleMock }> {
  const ec2 = createOpenAiCompatibleMock();
  const [a, b] = await Promise.all([
    startMockServer({ provider: primary.mock }),
    startMockServer({ provider: ec2 }),
  ]);
  const router = createRouter(
    {
      providers: {
        [primary.name]: primary.config(a.url),
        ec2: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { agent: 'af_heart' } } },
      },
      routes: {
        tts: { providers: [primary.name, 'ec2'], strategy: 'priority', midStream: 'resume', ...route },
      },
    },
    options,
  );
  onTestFinished(async () => {
    await router.close();
    await Promise.all([a.close(), b.close()]);
  });
  return { router, primary: primary.mock, ec2 };
}
