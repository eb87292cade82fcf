import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import type { ProviderTtsRequest } from '../../../src/providers/types.js';
import {
  createOpenAiCompatibleMock,
  mockSpeechPcm,
  openAiCompatibleHandlers,
  startMockServer,
} from '../../../src/testing/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { type ConformanceTarget, describeConformance } from './suite.js';

const apiKey = 'sk-speech-conformance-0123456789';
const text = 'Your table is booked.';
const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
/** The model of each stream format: OpenAI streams SSE from gpt-4o-mini-tts, never from tts-1. */
const MODEL = { sse: 'gpt-4o-mini-tts', audio: 'tts-1' } as const;
const rawOnly = 'raw PCM has no frames; the reset check covers a cut body';

function target(streamFormat: 'audio' | 'sse'): ConformanceTarget {
  return {
    name: `openai-compatible speech (${streamFormat === 'sse' ? 'SSE' : 'raw PCM'})`,
    capability: 'tts',
    apiKey,
    async startMock({ script, delay }) {
      const mock = createOpenAiCompatibleMock({ apiKey, delay, script: { ...script, chunkBytes: 4801 } });
      const server = await startMockServer({ provider: mock });
      return { baseUrl: `${server.url}/v1`, requests: server.requests, close: () => server.close() };
    },
    msw({ script, delay }) {
      const mock = createOpenAiCompatibleMock({ apiKey, delay, script: { ...script, chunkBytes: 4801 } });
      const baseUrl = 'https://speech.conformance.test/v1';
      return {
        baseUrl,
        handlers: openAiCompatibleHandlers({ baseUrl, provider: mock }),
        requests: mock.requests,
      };
    },
    makeAdapter: (baseUrl) =>
      createOpenAiAdapter({
        name: 'kokoro',
        kind: 'openai-compatible',
        baseUrl,
        apiKey,
        tts: { model: MODEL[streamFormat], responseFormat: 'pcm', streamFormat },
      }),
    request: (): ProviderTtsRequest => ({ text, voice: 'alloy', model: MODEL[streamFormat], format }),
    // One audio piece (or one speech.audio.delta frame) makes the first output.
    chunksToFirstOutput: 1,
    // 21 characters at 60 ms each: 1260 ms of 24 kHz PCM s16le, 60480 bytes.
    expected: { bytes: mockSpeechPcm(text), format },
    ...(streamFormat === 'audio'
      ? { skip: { truncated: rawOnly, 'error-event': rawOnly, malformed: rawOnly } }
      : {}),
  };
}

describeConformance(target('sse'));
describeConformance(target('audio'));
