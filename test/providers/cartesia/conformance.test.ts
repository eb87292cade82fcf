import { HttpHandler } from 'msw';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { ProviderTtsRequest } from '../../../src/providers/types.js';
import {
  cartesiaHandlers,
  createCartesiaMock,
  mockCartesiaAudio,
} from '../../../src/testing/cartesia/index.js';
import { startMockServer } from '../../../src/testing/mock-server.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { type ConformanceTarget, describeConformance } from '../conformance/suite.js';

const apiKey = 'sk_car_conformance_0123456789';
const text = 'Your table is booked.';
const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
const request = (): ProviderTtsRequest => ({ text, voice: 'voice-1', model: 'sonic-3', format });
const rawOnly = 'raw audio has no frames; the reset check covers a cut body';

function target(transport: 'bytes' | 'sse'): ConformanceTarget {
  return {
    name: `cartesia tts (/tts/${transport})`,
    capability: 'tts',
    apiKey,
    async startMock({ script, delay }) {
      const mock = createCartesiaMock({ apiKey, delay, script: { ...script, chunkBytes: 4801 } });
      const server = await startMockServer({ provider: mock });
      return { baseUrl: server.url, requests: server.requests, close: () => server.close() };
    },
    msw({ script, delay }) {
      const mock = createCartesiaMock({ apiKey, delay, script: { ...script, chunkBytes: 4801 } });
      const baseUrl = 'https://cartesia.conformance.test';
      const handlers = cartesiaHandlers({ baseUrl, provider: mock }).filter(
        (handler): handler is HttpHandler => handler instanceof HttpHandler,
      );
      return { baseUrl, handlers, requests: mock.requests };
    },
    makeAdapter: (baseUrl) =>
      createCartesiaAdapter({ name: 'cartesia', baseUrl, apiKey, tts: { model: 'sonic-3', transport } }),
    request,
    // One audio piece (or one `chunk` frame) makes the first output.
    chunksToFirstOutput: 1,
    // 21 characters at 60 ms each: 1260 ms of 24 kHz PCM s16le, 60480 bytes.
    expected: { bytes: mockCartesiaAudio(text, format), format },
    ...(transport === 'bytes'
      ? { skip: { truncated: rawOnly, 'error-event': rawOnly, malformed: rawOnly } }
      : {}),
  };
}

describeConformance(target('sse'));
describeConformance(target('bytes'));
