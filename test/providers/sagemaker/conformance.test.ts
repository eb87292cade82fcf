import { createSageMakerAdapter } from '../../../src/providers/sagemaker/index.js';
import type { ProviderSttRequest } from '../../../src/providers/types.js';
import {
  mockSpeechPcm,
  type SageMakerEndpoint,
  type SageMakerMockOptions,
  sageMakerChatEndpoint,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  startSageMakerEmulator,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { type ConformanceMockOptions, describeConformance } from '../conformance/suite.js';
import { credentials } from './helpers.js';

const apiKey = credentials.secretAccessKey;
const idle =
  'the adapter applies idleMs on its own clock option, not the transport clock the suite advances; covered in stream-errors.test.ts';

/**
 * The emulator (loopback) half of a target serving `endpoint(script)` as 'ep'. No msw half:
 * msw's node:http interceptor does not tell the handler when the client destroys a response it
 * is still streaming (mswjs/interceptors#768), so the suite's first-chunk and abort checks
 * cannot pass through it; msw.test.ts covers the adapter through msw instead.
 */
function serving(endpoint: (script: ConformanceMockOptions['script']) => SageMakerEndpoint) {
  const options = ({ script, delay }: ConformanceMockOptions): SageMakerMockOptions => ({
    delay,
    endpoints: { ep: endpoint(script) },
  });
  return {
    async startMock(mock: ConformanceMockOptions) {
      const emulator = await startSageMakerEmulator(options(mock));
      return { baseUrl: emulator.url, requests: emulator.requests, close: () => emulator.close() };
    },
  };
}

const base = (baseUrl: string) => ({
  name: 'sm',
  region: 'us-east-1',
  endpointName: 'ep',
  endpointUrl: baseUrl,
  credentials,
});

describeConformance({
  name: "sagemaker chat ('openai-chat')",
  capability: 'chat',
  apiKey,
  ...serving((script) => sageMakerChatEndpoint({ reply: 'Your table is booked.', script })),
  makeAdapter: (baseUrl) => createSageMakerAdapter({ ...base(baseUrl), chat: { payload: 'openai-chat' } }),
  request: () => ({ model: 'default', messages: [{ role: 'user', content: 'Book a table' }] }),
  // The role-only chunk, then the first word.
  chunksToFirstOutput: 2,
  expected: {
    items: [
      { type: 'text-delta', text: 'Your ' },
      { type: 'text-delta', text: 'table ' },
      { type: 'text-delta', text: 'is ' },
      { type: 'text-delta', text: 'booked.' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 4 } },
    ],
  },
  skip: { idle },
});

const ttsFormat: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
describeConformance({
  name: "sagemaker tts ('cartesia')",
  capability: 'tts',
  apiKey,
  ...serving((script) =>
    sageMakerTtsEndpoint({ payload: 'cartesia', script: { ...script, chunkBytes: 4801 } }),
  ),
  makeAdapter: (baseUrl) =>
    createSageMakerAdapter({ ...base(baseUrl), tts: { payload: 'cartesia', sampleRate: 24_000 } }),
  request: () => ({ text: 'Your table is booked.', voice: 'voice-1', model: 'sonic-3', format: ttsFormat }),
  chunksToFirstOutput: 1,
  expected: { bytes: mockSpeechPcm('Your table is booked.'), format: ttsFormat },
  skip: { idle },
});

const sttFormat: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
const utterance = syntheticVoiceBytes({ durationMs: 250, sampleRate: 16_000, seed: 2 });
describeConformance({
  name: "sagemaker stt ('wav')",
  capability: 'stt',
  apiKey,
  ...serving((script) => sageMakerSttEndpoint({ transcript: 'Table for two.', partials: true, script })),
  makeAdapter: (baseUrl) =>
    createSageMakerAdapter({ ...base(baseUrl), stt: { payload: 'wav', sampleRate: 16_000 } }),
  request: (): ProviderSttRequest => ({
    audio: (async function* () {
      yield utterance;
    })(),
    format: sttFormat,
    interim: true,
  }),
  chunksToFirstOutput: 1,
  expected: {
    items: [
      { type: 'partial', text: 'Table' },
      { type: 'partial', text: 'Table for' },
      { type: 'partial', text: 'Table for two.' },
      { type: 'final', text: 'Table for two.', startMs: 0, endMs: 250 },
    ],
  },
  skip: { idle },
});
