import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError, TimeoutError } from '../../../src/errors/index.js';
import { createElevenLabsAdapter, elevenLabsOutputFormats } from '../../../src/providers/elevenlabs/index.js';
import type { ElevenLabsTtsOptions } from '../../../src/providers/elevenlabs/options.js';
import {
  createElevenLabsMock,
  createManualDelay,
  type ElevenLabsMockOptions,
  type MockServer,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { attemptOf, collect, collectUntilError, expectSameBytes, joined } from './helpers.js';

const KEY = 'xi-secret-key-123456';
const TEXT = 'Your table is booked.';

let server: MockServer | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = undefined;
  transport = undefined;
});

async function setup(mockOptions: ElevenLabsMockOptions = {}, tts: ElevenLabsTtsOptions = {}) {
  const mock = createElevenLabsMock({ apiKey: KEY, ...mockOptions });
  server = await startMockServer({ provider: mock });
  transport = createHttpTransport();
  const adapter = createElevenLabsAdapter({
    name: 'eleven',
    baseUrl: server.url,
    apiKey: KEY,
    tts: { model: 'eleven_flash_v2_5', ...tts },
  });
  return { mock, tts: adapter.tts!, transport };
}

const FORMATS: Array<[string, AudioFormat]> = [
  ['pcm_8000', { encoding: 'pcm_s16le', sampleRate: 8000 }],
  ['pcm_16000', { encoding: 'pcm_s16le', sampleRate: 16000 }],
  ['pcm_22050', { encoding: 'pcm_s16le', sampleRate: 22050 }],
  ['pcm_24000', { encoding: 'pcm_s16le', sampleRate: 24000 }],
  ['pcm_32000', { encoding: 'pcm_s16le', sampleRate: 32000 }],
  ['pcm_44100', { encoding: 'pcm_s16le', sampleRate: 44100 }],
  ['pcm_48000', { encoding: 'pcm_s16le', sampleRate: 48000 }],
  ['ulaw_8000', { encoding: 'mulaw', sampleRate: 8000 }],
  ['alaw_8000', { encoding: 'alaw', sampleRate: 8000 }],
];

describe('ElevenLabs HTTP stream over a loopback socket', () => {
  it('declares every PCM rate, mu-law and A-law 8 kHz as native formats, 24 kHz PCM first', async () => {
    const { tts } = await setup();
    expect(tts.capabilities.outputFormats).toEqual(elevenLabsOutputFormats());
    expect(tts.capabilities.outputFormats[0]).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000 });
    expect(tts.capabilities.outputFormats).toHaveLength(9);
    expect(tts.capabilities).toMatchObject({ streamingText: true, wordTimestamps: false });
  });

  it.each(FORMATS)(
    '%s: asks for it in the query and yields exactly the mock bytes, labelled',
    async (name, format) => {
      const { mock, tts, transport } = await setup({ script: { stream: { chunkBytes: 1001 } } });
      const chunks = await collect(
        tts.synthesize({ text: TEXT, voice: 'voice-1', format }, attemptOf(transport)),
      );
      expectSameBytes(joined(chunks), mockElevenLabsAudio(TEXT, format));
      for (const chunk of chunks) expect(chunk.format).toEqual(format);
      const [request] = mock.requests;
      const url = new URL(request!.url);
      expect(url.pathname).toBe('/v1/text-to-speech/voice-1/stream');
      expect(url.searchParams.get('output_format')).toBe(name);
    },
  );

  it('sends the JSON body with snake_case keys, the key header, and optimize_streaming_latency', async () => {
    const { mock, tts, transport } = await setup(
      {},
      {
        optimizeStreamingLatency: 3,
        voiceSettings: {
          stability: 0.4,
          similarityBoost: 0.8,
          style: 0.1,
          useSpeakerBoost: true,
          speed: 1.1,
        },
      },
    );
    await collect(
      tts.synthesize(
        { text: TEXT, voice: 'v/1', format: { encoding: 'pcm_s16le', sampleRate: 16000 }, language: 'en-GB' },
        attemptOf(transport),
      ),
    );
    const [request] = mock.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/text-to-speech/v%2F1/stream');
    expect(new URL(request!.url).search).toBe('?output_format=pcm_16000&optimize_streaming_latency=3');
    expect(request!.headers['xi-api-key']).toBe(KEY);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      text: TEXT,
      model_id: 'eleven_flash_v2_5',
      language_code: 'en',
      voice_settings: {
        stability: 0.4,
        similarity_boost: 0.8,
        style: 0.1,
        use_speaker_boost: true,
        speed: 1.1,
      },
    });
  });

  it("clamps a request's speed to ElevenLabs' 0.7..1.2 and the audio follows it", async () => {
    const { mock, tts, transport } = await setup();
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
    const chunks = await collect(
      tts.synthesize({ text: TEXT, voice: 'v', format, speed: 2 }, attemptOf(transport)),
    );
    expect((mock.requests[0]!.body as { voice_settings: unknown }).voice_settings).toEqual({ speed: 1.2 });
    expectSameBytes(joined(chunks), mockElevenLabsAudio(TEXT, format, {}, 1.2));
  });

  it('joins streamed text when the transport is forced to http', async () => {
    const { mock, tts, transport } = await setup({}, { transport: 'http' });
    expect(tts.capabilities.streamingText).toBe(false);
    async function* pieces() {
      yield 'Your table ';
      yield 'is booked.';
    }
    const format: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const chunks = await collect(
      tts.synthesize({ text: pieces(), voice: 'v', format }, attemptOf(transport)),
    );
    expect((mock.requests[0]!.body as { text: string }).text).toBe(TEXT);
    expectSameBytes(joined(chunks), mockElevenLabsAudio(TEXT, format));
  });

  it('401: ProviderError with the detail status and message, not retryable, and no key in the message', async () => {
    const mock = createElevenLabsMock({ apiKey: 'the-right-key' });
    server = await startMockServer({ provider: mock });
    transport = createHttpTransport();
    const adapter = createElevenLabsAdapter({ name: 'eleven', baseUrl: server.url, apiKey: KEY, tts: {} });
    const { error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text: TEXT, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect(e).toMatchObject({
      status: 401,
      providerCode: 'invalid_api_key',
      retryable: false,
      provider: 'eleven',
    });
    expect(e.message).toContain('Invalid API key');
    expect(e.message).not.toContain(KEY);
    expect(JSON.stringify(e)).not.toContain(KEY);
  });

  it('429 with Retry-After: retryable ProviderError with retryAfterMs', async () => {
    const { tts, transport } = await setup({
      script: { stream: { failTimes: 1, failStatus: 429, retryAfter: '3' } },
    });
    const { error } = await collectUntilError(
      tts.synthesize(
        { text: TEXT, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
      providerCode: 'too_many_concurrent_requests',
    });
  });

  it('422 validation body: ProviderError with the location and message', async () => {
    const { tts, transport } = await setup();
    const { error } = await collectUntilError(
      tts.synthesize(
        { text: '   ', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 422, retryable: false, providerType: 'missing' });
    expect((error as Error).message).toContain('body.text: Field required');
  });

  it('a format ElevenLabs does not make is refused before any request', async () => {
    const { mock, tts, transport } = await setup();
    const { error } = await collectUntilError(
      tts.synthesize(
        { text: TEXT, voice: 'v', format: { encoding: 'pcm_f32le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: false });
    expect(mock.requests).toHaveLength(0);
  });

  it('a 200 JSON answer is a ProtocolError, not audio', async () => {
    const mock = createElevenLabsMock();
    const jsonServer = await startMockServer({
      provider: {
        requests: mock.requests,
        handle: async () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }),
      },
    });
    transport = createHttpTransport();
    try {
      const adapter = createElevenLabsAdapter({
        name: 'eleven',
        baseUrl: jsonServer.url,
        apiKey: KEY,
        tts: {},
      });
      const { items, error } = await collectUntilError(
        adapter.tts!.synthesize(
          { text: TEXT, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
          attemptOf(transport),
        ),
      );
      expect(items).toHaveLength(0);
      expect(ProtocolError.isInstance(error)).toBe(true);
    } finally {
      await jsonServer.close();
    }
  });

  it('audio labelled audio/mpeg is still read as the raw format asked for', async () => {
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
    const bytes = mockElevenLabsAudio('Hi.', format);
    const mpegServer = await startMockServer({
      provider: {
        requests: [],
        handle: async () => new Response(Buffer.from(bytes), { headers: { 'content-type': 'audio/mpeg' } }),
      },
    });
    transport = createHttpTransport();
    try {
      const adapter = createElevenLabsAdapter({
        name: 'eleven',
        baseUrl: mpegServer.url,
        apiKey: KEY,
        tts: {},
      });
      const chunks = await collect(
        adapter.tts!.synthesize({ text: 'Hi.', voice: 'v', format }, attemptOf(transport)),
      );
      expectSameBytes(joined(chunks), bytes);
    } finally {
      await mpegServer.close();
    }
  });

  it('abort after the first chunk closes the connection (the mock records the client going away)', async () => {
    const time = createManualDelay();
    const { mock, tts, transport } = await setup({
      delay: time.delay,
      script: { stream: { chunkGapMs: 50 } },
    });
    const abort = new AbortController();
    const stream = tts.synthesize(
      { text: TEXT, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
      attemptOf(transport, { signal: abort.signal }),
    );
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    expect(await time.whenWaiting()).toBe(50);
    const pending = iterator.next();
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await mock.requests[0]!.ended).toBe('aborted');
  });

  it('a stalled body fails with the idle deadline (TimeoutError idle)', async () => {
    const { tts, transport } = await setup({ script: { stream: { stallAfterChunks: 1, chunkBytes: 100 } } });
    const { items, error } = await collectUntilError(
      tts.synthesize(
        { text: TEXT, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport, { deadlines: { headersMs: 5000, idleMs: 50 } }),
      ),
    );
    expect(items).toHaveLength(1);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'idle' });
  });
});
