import { describe, expect, it } from 'vitest';
import { createRouter, isResolvedConfig, parseConfig, type RouterConfig } from '../../src/index.js';
import {
  DEFAULT_CHAT_REPLY,
  DEFAULT_TRANSCRIPT,
  MOCK_API_KEY,
  MOCK_AWS_CREDENTIALS,
  type MockProviders,
  mockSpeechPcm,
  startMockProviders,
  syntheticAudio,
} from '../../src/testing/index.js';
import { concatData, collect as drain } from '../helpers/index.js';
import { PCM16K, PCM24K, readmeConfig, TEXT, textOf, useMockProviders } from '../helpers/mock-providers.js';

const config = readmeConfig();
const kit = useMockProviders(config, { providers: { claude: { reply: 'Claude booked it.' } } });

/**
 * The requests each mock receives from here on: the kit serves every test of the file, so a
 * test checks only its own requests, whatever ran before it.
 */
function requestsFromNow(): (name: string) => MockProviders['mocks'][string]['requests'] {
  const start = new Map(Object.entries(kit.started.mocks).map(([name, m]) => [name, m.requests.length]));
  return (name) => kit.started.mocks[name]!.requests.slice(start.get(name));
}

async function text(stream: AsyncIterable<{ type: string; text?: string }>) {
  return textOf(await drain(stream), 'text-delta', '');
}

describe('startMockProviders', () => {
  it('points every provider at its own loopback mock with the mock key, leaving the rest unchanged', () => {
    const providers = kit.started.config.providers as Record<string, Record<string, unknown>>;
    const url = (name: string) => kit.started.mocks[name]!.url;
    for (const name of Object.keys(config.providers))
      expect(url(name)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(Object.keys(config.providers).map(url)).size).toBe(6);
    expect(providers.oa!.baseUrl).toBe(`${url('oa')}/v1`);
    expect(providers.claude!.baseUrl).toBe(url('claude'));
    expect(providers.sonic!.baseUrl).toBe(url('sonic'));
    expect(providers.dg!.baseUrl).toBe(url('dg'));
    expect(providers.eleven!.baseUrl).toBe(url('eleven'));
    expect(providers.sm!.endpointUrl).toBe(url('sm'));
    expect(providers.sm!.credentials).toEqual(MOCK_AWS_CREDENTIALS);
    expect(providers.oa!.apiKey).toBe(MOCK_API_KEY);
    expect(providers.oa!.tts).toEqual((config.providers.oa as { tts: unknown }).tts);
    expect(kit.started.config.routes).toBe(config.routes);
    expect(Object.values(kit.started.mocks).map((m) => m.kind)).toEqual([
      'openai',
      'anthropic',
      'cartesia',
      'deepgram',
      'elevenlabs',
      'sagemaker',
    ]);
  });

  it('chat: OpenAI, Anthropic (with per-provider options) and SageMaker answer from their mocks', async () => {
    const requests = requestsFromNow();
    expect(await text(kit.router.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast' }))).toBe(
      DEFAULT_CHAT_REPLY,
    );
    expect(
      await text(
        kit.router.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast', route: 'claude' }),
      ),
    ).toBe('Claude booked it.');
    expect(
      await text(
        kit.router.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast', route: 'sm' }),
      ),
    ).toBe(DEFAULT_CHAT_REPLY);
    const oa = requests('oa');
    expect(oa.map((r) => [r.endpoint, r.headers.authorization])).toEqual([
      ['chat', `Bearer ${MOCK_API_KEY}`],
    ]);
    expect((oa[0]!.body as { model: string }).model).toBe('gpt-4o-mini');
    expect(requests('claude').map((r) => r.headers['x-api-key'])).toEqual([MOCK_API_KEY]);
    expect(requests('sm').map((r) => r.path)).toEqual(['/endpoints/llm/invocations-response-stream']);
  });

  it('tts: OpenAI gives the mock voice byte for byte; Cartesia and ElevenLabs serve audio over their wires', async () => {
    const requests = requestsFromNow();
    const oaAudio = concatData(await drain(kit.router.tts({ text: TEXT, voice: 'agent', format: PCM24K })));
    expect(Buffer.from(oaAudio).equals(Buffer.from(mockSpeechPcm(TEXT)))).toBe(true);
    for (const route of ['sonic', 'eleven']) {
      const stream = kit.router.tts({ text: TEXT, voice: 'agent', format: PCM24K, route });
      const chunks = await drain(stream);
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.every((c) => c.format.sampleRate === 24000 && c.format.encoding === 'pcm_s16le')).toBe(
        true,
      );
      expect((await stream.result).provider).toBe(route);
    }
    expect(requests('sonic').length).toBe(1);
    expect(requests('eleven').map((r) => r.headers['xi-api-key'])).toEqual([MOCK_API_KEY]);
  });

  it('stt: OpenAI and Deepgram transcribe from their mocks', async () => {
    const requests = requestsFromNow();
    const pcm = syntheticAudio({ durationMs: 2000, format: PCM16K });
    async function* audio() {
      yield pcm;
    }
    const finals = async (route: string) =>
      textOf(await drain(kit.router.stt({ audio: audio(), format: PCM16K, route })), 'final', ' ');
    expect(await finals('stt')).toBe(DEFAULT_TRANSCRIPT);
    expect(await finals('dg')).toBe('hello from the mock your');
    expect(requests('dg').map((r) => r.headers.authorization)).toEqual([`Token ${MOCK_API_KEY}`]);
  });

  it('rejects a provider kind that has no mock with a TypeError naming the provider', async () => {
    await expect(
      startMockProviders({ providers: { odd: { kind: 'nope' } } } as unknown as RouterConfig),
    ).rejects.toThrow(new TypeError('startMockProviders: provider "odd" has kind "nope", which has no mock'));
  });

  it('rejects an empty providers object and a config that is not an object with a TypeError, before any server starts', async () => {
    // An empty list started nothing and returned a config that no router takes; null read "Cannot read properties of null".
    await expect(
      startMockProviders({ providers: {}, routes: {} } as unknown as RouterConfig),
    ).rejects.toThrow(
      new TypeError(
        'startMockProviders: config.providers is empty: give at least one provider to mock (a router config needs one)',
      ),
    );
    await expect(startMockProviders(null as unknown as RouterConfig)).rejects.toThrow(
      new TypeError(
        'startMockProviders(config, options?): config must be a router config ({ providers, routes }), got null',
      ),
    );
  });

  it('round-trips both config forms: a resolved config (loadConfig/parseConfig) stays resolved, one as written stays as written', async () => {
    const env = {
      OPENAI_API_KEY: 'k1',
      ANTHROPIC_API_KEY: 'k2',
      CARTESIA_API_KEY: 'k3',
      DEEPGRAM_API_KEY: 'k4',
      ELEVENLABS_API_KEY: 'k5',
    };
    const resolved = parseConfig(config, { env });
    const fromResolved = await startMockProviders(resolved);
    const fromWritten = await startMockProviders(config);
    try {
      expect(isResolvedConfig(fromResolved.config)).toBe(true);
      expect(isResolvedConfig(fromWritten.config)).toBe(false);
      expect(fromResolved.config.routes).toBe(resolved.routes);
      const keyOf = (c: typeof resolved) => (c.providers.oa as { apiKey?: string }).apiKey;
      expect(keyOf(fromResolved.config)).toBe(MOCK_API_KEY);
      expect(keyOf(resolved)).toBe('k1');
      for (const started of [fromResolved, fromWritten]) {
        const router = createRouter(started.config);
        try {
          expect(
            await text(router.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast' })),
          ).toBe(DEFAULT_CHAT_REPLY);
        } finally {
          await router.close();
        }
      }
      expect(fromResolved.mocks.oa!.requests.map((r) => r.headers.authorization)).toEqual([
        `Bearer ${MOCK_API_KEY}`,
      ]);
    } finally {
      await fromResolved.close();
      await fromWritten.close();
    }
  });
});
