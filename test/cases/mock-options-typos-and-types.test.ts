/**
 * The testing kit's options are checked as strictly as the router config: a provider name that
 * is not in the config, an unknown option or script key (a misspelt `failTime` would script no
 * fault), and a script field of the wrong type or range are a TypeError naming the path, before
 * any server starts; the mock factories check their own options the same way, and name
 * themselves in the message (`createCartesiaMock: options.script...`) as startMockProviders does.
 */
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import {
  createAnthropicMock,
  createCartesiaMock,
  createDeepgramMock,
  createElevenLabsMock,
  createOpenAiCompatibleMock,
  createSageMakerMock,
  type StartMockProvidersOptions,
  startMockProviders,
} from '../../src/testing/index.js';

const config: RouterConfig = {
  providers: { openai: { kind: 'openai', apiKey: { env: 'X' }, chat: { models: { fast: 'g' } } } },
  routes: { chat: { providers: ['openai'] } },
};

const P = 'startMockProviders: options';
const cases: Array<[string, unknown, string]> = [
  [
    'a provider name not in the config',
    { providers: { opena: { chat: 'hi' } } },
    `${P}.providers.opena: no provider of the config is named so (did you mean 'openai'?); its providers are openai`,
  ],
  [
    'an unknown script key',
    { providers: { openai: { script: { failTime: 2, failStatus: 503 } } } },
    `${P}.providers.openai.script.failTime: unknown key; did you mean "failTimes"?`,
  ],
  [
    'failTimes as a string',
    { providers: { openai: { script: { failTimes: '2', failStatus: 503 } } } },
    `${P}.providers.openai.script.failTimes: expected a number, got a string`,
  ],
  [
    'failStatus as a string, in a per-endpoint array',
    { providers: { openai: { script: { chat: [{}, { failTimes: 1, failStatus: '503' }] } } } },
    `${P}.providers.openai.script.chat.1.failStatus: expected a number, got a string`,
  ],
  [
    'a negative delay',
    { providers: { openai: { script: { firstChunkDelayMs: -5 } } } },
    `${P}.providers.openai.script.firstChunkDelayMs: must be >= 0 ms`,
  ],
  [
    'an unknown endpoint of a per-endpoint script',
    { providers: { openai: { script: { chat: {}, speach: {} } } } },
    `${P}.providers.openai.script.speach: unknown endpoint (did you mean "speech"?); the endpoints are chat, speech, transcription, models`,
  ],
  [
    'a misspelt endpoint as the only key of a script',
    { providers: { openai: { script: { chats: { failTimes: 1 } } } } },
    `${P}.providers.openai.script.chats: unknown key (did you mean the endpoint "chat"?); a script is one for every endpoint, or one per endpoint: chat, speech, transcription, models`,
  ],
  [
    'a key that is neither a script field nor an endpoint',
    { providers: { openai: { script: { whatever: 1 } } } },
    `${P}.providers.openai.script.whatever: unknown key; a script is one for every endpoint, or one per endpoint: chat, speech, transcription, models`,
  ],
  [
    'an unknown option of a mock',
    { providers: { openai: { dialekt: 'vllm' } } },
    `${P}.providers.openai.dialekt: unknown key; did you mean "dialect"?`,
  ],
  [
    'options.providers not an object',
    { providers: 5 },
    `${P}.providers: expected an object of mock options by provider name, got number`,
  ],
  [
    'an unknown option of startMockProviders',
    { provider: {} },
    `${P}.provider: unknown option (did you mean 'providers'?); the options are providers, host, tls`,
  ],
  ['tls as a string', { tls: 'yes' }, `${P}.tls: expected a boolean, got string`],
];

describe('startMockProviders rejects bad options with a TypeError naming the path', () => {
  it.each(cases)('%s', async (_label, options, message) => {
    const error = await startMockProviders(config, options as StartMockProvidersOptions).then(
      (mocks) => mocks.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(message);
  });

  it('still accepts a well-formed script (one for every call, an array, per endpoint, a function)', async () => {
    const mocks = await startMockProviders(config, {
      providers: {
        openai: {
          script: { chat: [{ failTimes: 1, failStatus: 503, retryAfter: '0' }], speech: () => ({}) },
        },
      },
    });
    await mocks.close();
  });
});

describe('the mock factories check their options the same way, naming themselves', () => {
  const factories: Array<[string, () => unknown, string]> = [
    [
      'OpenAI-compatible: transcript of the wrong type',
      () => createOpenAiCompatibleMock({ transcript: 5 as never }),
      'createOpenAiCompatibleMock: options.transcript: expected a string',
    ],
    [
      'Cartesia: closeCode as a string in a per-endpoint script',
      () => createCartesiaMock({ script: { 'tts-websocket': { closeCode: '1011' as never } } }),
      'createCartesiaMock: options.script.tts-websocket.closeCode: expected a number, got a string',
    ],
    [
      'Deepgram: a script not by endpoint',
      () => createDeepgramMock({ script: { failTimes: 1 } as never }),
      'createDeepgramMock: options.script.failTimes: unknown endpoint; the endpoints are speak, listen',
    ],
    [
      'ElevenLabs: a fractional chunkBytes',
      () => createElevenLabsMock({ script: { stream: { chunkBytes: 2.5 } } }),
      'createElevenLabsMock: options.script.stream.chunkBytes: expected a whole number',
    ],
    [
      'Anthropic: a reply tool input of the wrong type',
      () => createAnthropicMock({ reply: { toolUses: [{ name: 'book', input: 4 as never }] } }),
      'createAnthropicMock: options.reply.toolUses.0.input: expected a string (JSON text), an array of strings or an object',
    ],
    [
      'OpenAI-compatible: a chat tool call arguments of the wrong type',
      () => createOpenAiCompatibleMock({ chat: { toolCalls: [{ name: 'book', arguments: 4 as never }] } }),
      'createOpenAiCompatibleMock: options.chat.toolCalls.0.arguments: expected a string (JSON text), an array of strings or an object',
    ],
    [
      'SageMaker: an unknown option',
      () => createSageMakerMock({ bogus: 1 } as never),
      'createSageMakerMock: options.bogus: unknown key',
    ],
    [
      'SageMaker: options not an object',
      () => createSageMakerMock(5 as never),
      'createSageMakerMock: options: expected an object of mock options, got number',
    ],
  ];
  it.each(factories)('%s', (_label, make, message) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect((error as Error).message).toBe(message);
    }
  });
});
