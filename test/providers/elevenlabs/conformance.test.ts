import { createElevenLabsAdapter } from '../../../src/providers/elevenlabs/index.js';
import type { ProviderTtsRequest } from '../../../src/providers/types.js';
import {
  createElevenLabsMock,
  elevenLabsHandlers,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { type ConformanceTarget, describeConformance } from '../conformance/suite.js';

const apiKey = 'xi-conformance-0123456789abcdef';
const text = 'Your table is booked.';
const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
const request = (): ProviderTtsRequest => ({ text, voice: 'voice-1', model: 'eleven_flash_v2_5', format });
const rawOnly = 'raw audio has no frames; the reset check covers a cut body';

const http: ConformanceTarget = {
  name: 'elevenlabs tts (HTTP /stream)',
  capability: 'tts',
  apiKey,
  async startMock({ script, delay }) {
    const mock = createElevenLabsMock({ apiKey, delay, script: { stream: { ...script, chunkBytes: 4801 } } });
    const server = await startMockServer({ provider: mock });
    return { baseUrl: server.url, requests: server.requests, close: () => server.close() };
  },
  msw({ script, delay }) {
    const mock = createElevenLabsMock({ apiKey, delay, script: { stream: { ...script, chunkBytes: 4801 } } });
    const baseUrl = 'https://elevenlabs.conformance.test';
    return { baseUrl, handlers: elevenLabsHandlers({ baseUrl, provider: mock }), requests: mock.requests };
  },
  makeAdapter: (baseUrl) =>
    createElevenLabsAdapter({ name: 'eleven', baseUrl, apiKey, tts: { transport: 'http' } }),
  request,
  // One audio piece makes the first output.
  chunksToFirstOutput: 1,
  // 21 characters at 60 ms each: 1260 ms of 24 kHz PCM s16le, 60480 bytes.
  expected: { bytes: mockElevenLabsAudio(text, format), format },
  skip: { truncated: rawOnly, 'error-event': rawOnly, malformed: rawOnly },
};

const webSocket = createWebSocketTransport();
const websocket: ConformanceTarget = {
  name: 'elevenlabs tts (stream-input WebSocket)',
  capability: 'tts',
  apiKey,
  async startMock({ script, delay }) {
    const mock = createElevenLabsMock({
      apiKey,
      delay,
      script: { streamInput: { ...script, chunkBytes: 4801 } },
    });
    const server = await startMockServer({ provider: mock });
    return { baseUrl: server.url, requests: server.requests, close: () => server.close() };
  },
  makeAdapter: (baseUrl) =>
    createElevenLabsAdapter({ name: 'eleven', baseUrl, apiKey, tts: { transport: 'websocket' } }),
  prepareAttempt: (attempt) => ({ ...attempt, webSocket }),
  request,
  // One audio message makes the first output.
  chunksToFirstOutput: 1,
  // The text is sent as "Your table is booked. " (it must end with a space): 22 characters.
  expected: { bytes: mockElevenLabsAudio(`${text} `, format), format },
  skip: {
    complete: 'an accepted upgrade is recorded with status 101, not 200 (covered in stream-input.test.ts)',
    'http-429': 'a refused upgrade carries no Retry-After (MockUpgrade.reject has no headers)',
    reset: 'a dropped socket is the transport ProviderError 1006 (covered in stream-input.test.ts)',
    'error-event': 'the error message carries close code 1011 as status (covered in stream-input.test.ts)',
  },
};

describeConformance(http);
describeConformance(websocket);
