import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { createElevenLabsAdapter } from '../../../src/providers/elevenlabs/index.js';
import {
  createElevenLabsMock,
  elevenLabsHandlers,
  elevenLabsWebSocketHandler,
  mockElevenLabsAudio,
} from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { attemptOf, collect, collectUntilError, expectSameBytes, joined } from './helpers.js';

const KEY = 'xi-msw-key-abcdef';
const TEXT = 'Your table is booked.';

describe('ElevenLabs adapter through msw (fetch transport, HTTP)', () => {
  const mock = createElevenLabsMock({
    apiKey: KEY,
    script: {
      stream: ({ call }) =>
        call === 2 ? { failTimes: 2, failStatus: 429, retryAfter: '1' } : { chunkBytes: 999 },
    },
  });
  const msw = setupServer(...elevenLabsHandlers({ provider: mock }));
  let transport: HttpTransport;
  beforeAll(() => {
    msw.listen({ onUnhandledRequest: 'error' });
    transport = createHttpTransport({ fetch: globalThis.fetch });
  });
  afterEach(() => msw.resetHandlers());
  afterAll(async () => {
    await transport.close();
    msw.close();
  });
  const adapter = createElevenLabsAdapter({
    name: 'eleven',
    baseUrl: 'https://api.elevenlabs.io',
    apiKey: KEY,
    tts: { model: 'eleven_turbo_v2_5' },
  });

  it('streams the exact bytes of the asked format from api.elevenlabs.io', async () => {
    const format: AudioFormat = { encoding: 'alaw', sampleRate: 8000 };
    const chunks = await collect(
      adapter.tts!.synthesize({ text: TEXT, voice: 'v1', format }, attemptOf(transport)),
    );
    expectSameBytes(joined(chunks), mockElevenLabsAudio(TEXT, format));
    expect(mock.requests[0]!.url).toBe(
      'https://api.elevenlabs.io/v1/text-to-speech/v1/stream?output_format=alaw_8000',
    );
    expect(mock.requests[0]!.body).toEqual({ text: TEXT, model_id: 'eleven_turbo_v2_5' });
  });

  it('429 with Retry-After through msw: retryable ProviderError', async () => {
    const { error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text: TEXT, voice: 'v1', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1000 });
    expect((error as Error).message).not.toContain(KEY);
  });
});

describe('ElevenLabs adapter through msw (WebSocket)', () => {
  it.skipIf(!globalThis.WebSocket)(
    'stream-input through msw ws (needs a global WebSocket: Node >= 22; skipped on Node 20)',
    async () => {
      const mock = createElevenLabsMock({ apiKey: KEY });
      const msw = setupServer(elevenLabsWebSocketHandler(mock));
      msw.listen({ onUnhandledRequest: 'error' });
      try {
        const webSocket = createWebSocketTransport({ useGlobalWebSocket: true });
        const adapter = createElevenLabsAdapter({
          name: 'eleven',
          baseUrl: 'https://api.elevenlabs.io',
          apiKey: KEY,
          tts: { transport: 'websocket' },
        });
        const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
        const chunks = await collect(
          adapter.tts!.synthesize(
            { text: TEXT, voice: 'v1', format },
            attemptOf(createHttpTransport(), { webSocket }),
          ),
        );
        expectSameBytes(joined(chunks), mockElevenLabsAudio(`${TEXT} `, format));
        expect(mock.sockets[0]!.auth).toBe('message');
      } finally {
        msw.close();
      }
    },
  );
});
