/**
 * The options of voxroute/testing's mock factories, msw handlers and synthetic audio helpers take
 * a field set to `undefined` as unset, as their types say (`exactOptionalPropertyTypes`): a
 * factory given every optional field as `undefined` is made without an error and answers as the
 * factory with none.
 */
import { describe, expect, it } from 'vitest';
import {
  anthropicHandlers,
  cartesiaHandlers,
  createAnthropicMock,
  createCartesiaMock,
  createDeepgramMock,
  createElevenLabsMock,
  createOpenAiCompatibleMock,
  createSageMakerMock,
  deepgramHandlers,
  elevenLabsHandlers,
  type MockProvider,
  mockSpeechPcm,
  openAiCompatibleHandlers,
  sageMakerHandlers,
  syntheticAudio,
  syntheticVoiceBytes,
} from '../../src/testing/index.js';

const u = undefined;
const common = { apiKey: u, script: u, delay: u, now: u };
const factories: Array<[string, () => MockProvider]> = [
  [
    'createOpenAiCompatibleMock',
    () => createOpenAiCompatibleMock({ ...common, dialect: u, chat: u, transcript: u, speech: u, models: u }),
  ],
  ['createAnthropicMock', () => createAnthropicMock({ ...common, authHeader: u, reply: u })],
  ['createCartesiaMock', () => createCartesiaMock({ ...common, speech: u, transcript: u })],
  [
    'createDeepgramMock',
    () => createDeepgramMock({ ...common, transcript: u, wordMs: u, inactivityTimeoutMs: u, speech: u }),
  ],
  [
    'createElevenLabsMock',
    () => createElevenLabsMock({ ...common, speech: u, alignmentDurationsKey: u, inactivityTimeoutMs: u }),
  ],
  [
    'createSageMakerMock',
    () =>
      createSageMakerMock({
        endpoints: u,
        script: u,
        coldStart: u,
        requireSignature: u,
        verifySignatures: u,
        delay: u,
        now: u,
      }),
  ],
];

async function chatAnswer(mock: MockProvider): Promise<[number, string]> {
  const response = await mock.handle(
    new Request('http://mock.test/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    }),
  );
  const body = JSON.parse(await response.text()) as { choices: Array<{ message: { content: string } }> };
  return [response.status, body.choices[0]!.message.content];
}

describe('voxroute/testing options: undefined is unset', () => {
  it.each(factories)('%s takes every optional field as undefined', (_name, make) => {
    expect(typeof make().handle).toBe('function');
  });

  it('an OpenAI-compatible mock with every field undefined answers as one with none', async () => {
    expect(await chatAnswer(factories[0]![1]())).toEqual(await chatAnswer(createOpenAiCompatibleMock()));
  });

  it('the msw handlers take a provider left undefined and every option undefined', () => {
    const handlers = [
      openAiCompatibleHandlers({ baseUrl: 'http://mock.test/v1', provider: u, apiKey: u, chat: u }),
      anthropicHandlers({ baseUrl: 'http://mock.test/v1', provider: u, apiKey: u, reply: u }),
      cartesiaHandlers({ baseUrl: u, provider: u, apiKey: u }),
      deepgramHandlers({ baseUrl: u, provider: u, apiKey: u }),
      elevenLabsHandlers({ baseUrl: u, provider: u, apiKey: u }),
      sageMakerHandlers({ endpointUrl: 'http://mock.test', provider: u, endpoints: u }),
    ];
    expect(handlers.map((h) => h.length > 0)).toEqual([true, true, true, true, true, true]);
  });

  it('the synthetic audio helpers give the same bytes as with the fields left out', () => {
    expect(mockSpeechPcm('Hello there.', { msPerCharacter: u, sampleRate: u, seed: u })).toEqual(
      mockSpeechPcm('Hello there.'),
    );
    expect(syntheticAudio({ durationMs: 100, sampleRate: 16_000, format: u, seed: u })).toEqual(
      syntheticAudio({ durationMs: 100, sampleRate: 16_000 }),
    );
    expect(syntheticVoiceBytes({ durationMs: 100, sampleRate: 16_000, seed: u })).toEqual(
      syntheticVoiceBytes({ durationMs: 100, sampleRate: 16_000 }),
    );
  });
});
