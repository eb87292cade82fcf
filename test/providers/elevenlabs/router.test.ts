import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AudioChunk, createRouter, ProviderError, type RouterConfig } from '../../../src/index.js';
import {
  createElevenLabsMock,
  createOpenAiCompatibleMock,
  elevenLabsHandlers,
  type MockServer,
  mockElevenLabsAudio,
  mockSpeechPcm,
  openAiCompatibleHandlers,
  startMockServer,
} from '../../../src/testing/index.js';
import { expectSameBytes } from './helpers.js';

const KEY = 'xi-router-key-999999';
const TEXT = 'Your table is booked.';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

let servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

type Mode = 'loopback' | 'msw';

async function origins(
  mode: Mode,
  eleven: ReturnType<typeof createElevenLabsMock>,
  openai?: ReturnType<typeof createOpenAiCompatibleMock>,
) {
  if (mode === 'msw') {
    msw.use(...elevenLabsHandlers({ baseUrl: 'https://eleven.mock.test', provider: eleven }));
    if (openai)
      msw.use(...openAiCompatibleHandlers({ baseUrl: 'http://ec2.mock.test/v1', provider: openai }));
    return {
      elevenUrl: 'https://eleven.mock.test',
      openaiUrl: 'http://ec2.mock.test/v1',
      fetch: globalThis.fetch,
    };
  }
  const e = await startMockServer({ provider: eleven });
  servers.push(e);
  let openaiUrl = 'http://127.0.0.1:9/v1';
  if (openai) {
    const o = await startMockServer({ provider: openai });
    servers.push(o);
    openaiUrl = `${o.url}/v1`;
  }
  return { elevenUrl: e.url, openaiUrl };
}

async function drain(stream: AsyncIterable<AudioChunk>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk.data));
  return Buffer.concat(parts);
}

describe.each<Mode>(['loopback', 'msw'])('createRouter with an ElevenLabs provider (%s)', (mode) => {
  it('ElevenLabs failing 429 with Retry-After falls back to the OpenAI-compatible provider before any audio', async () => {
    const eleven = createElevenLabsMock({
      apiKey: KEY,
      script: { stream: { failTimes: 1, failStatus: 429, retryAfter: '7' } },
    });
    const openai = createOpenAiCompatibleMock();
    const { elevenUrl, openaiUrl, fetch } = await origins(mode, eleven, openai);
    const config: RouterConfig = {
      providers: {
        eleven: {
          kind: 'elevenlabs',
          baseUrl: elevenUrl,
          apiKey: KEY,
          tts: { voices: { agent: 'voice-el' } },
        },
        ec2: {
          kind: 'openai-compatible',
          baseUrl: openaiUrl,
          tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
        },
      },
      routes: { tts: { providers: ['eleven', 'ec2'], strategy: 'priority' } },
    };
    const router = createRouter(config, fetch ? { fetch } : {});
    try {
      const stream = router.tts({ text: TEXT, voice: 'agent' });
      const audio = await drain(stream);
      expectSameBytes(audio, mockSpeechPcm(TEXT));
      const result = await stream.result;
      expect(result.provider).toBe('ec2');
      expect(result.attempts.map((a) => a.provider)).toEqual(['eleven', 'ec2']);
      const failure = result.attempts[0]!.error;
      expect(ProviderError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ status: 429, retryable: true, retryAfterMs: 7000 });
      expect(String((failure as Error).message)).not.toContain(KEY);
      expect(eleven.calls('stream')).toBe(1);
      expect(new URL(eleven.requests[0]!.url).searchParams.get('output_format')).toBe('pcm_24000');
    } finally {
      await router.close();
    }
  });

  it('a caller asking for mu-law 8 kHz gets ElevenLabs ulaw_8000 natively: the exact bytes, no conversion', async () => {
    const eleven = createElevenLabsMock({ apiKey: KEY });
    const { elevenUrl, fetch } = await origins(mode, eleven);
    const router = createRouter(
      {
        providers: {
          eleven: {
            kind: 'elevenlabs',
            baseUrl: elevenUrl,
            apiKey: KEY,
            tts: { model: 'eleven_flash_v2_5', voices: { agent: 'voice-el' } },
          },
        },
        routes: { tts: { providers: ['eleven'] } },
      },
      fetch ? { fetch } : {},
    );
    try {
      const format = { encoding: 'mulaw', sampleRate: 8000 } as const;
      const chunks: AudioChunk[] = [];
      for await (const chunk of router.tts({ text: TEXT, voice: 'agent', format })) chunks.push(chunk);
      expectSameBytes(Buffer.concat(chunks.map((c) => c.data)), mockElevenLabsAudio(TEXT, format));
      for (const chunk of chunks) expect(chunk.format).toMatchObject(format);
      const [request] = eleven.requests;
      expect(new URL(request!.url).searchParams.get('output_format')).toBe('ulaw_8000');
      expect(request!.path).toBe('/v1/text-to-speech/voice-el/stream');
      expect(request!.body).toEqual({ text: TEXT, model_id: 'eleven_flash_v2_5' });
    } finally {
      await router.close();
    }
  });
});

describe('createRouter with ElevenLabs over the stream-input WebSocket (loopback)', () => {
  it('C18: the socket closes with 1008 before any audio; the router falls back at once to the next provider', async () => {
    const eleven = createElevenLabsMock({
      apiKey: KEY,
      script: { streamInput: { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' } },
    });
    const openai = createOpenAiCompatibleMock();
    const { elevenUrl, openaiUrl } = await origins('loopback', eleven, openai);
    const router = createRouter({
      providers: {
        eleven: {
          kind: 'elevenlabs',
          baseUrl: elevenUrl,
          apiKey: KEY,
          tts: { transport: 'websocket', voices: { agent: 'voice-el' } },
        },
        ec2: { kind: 'openai-compatible', baseUrl: openaiUrl, tts: { voices: { agent: 'af_heart' } } },
      },
      routes: { tts: { providers: ['eleven', 'ec2'], strategy: 'priority' } },
    });
    try {
      const stream = router.tts({ text: 'Hi there.', voice: 'agent' });
      expectSameBytes(await drain(stream), mockSpeechPcm('Hi there.'));
      const result = await stream.result;
      expect(result.provider).toBe('ec2');
      const failure = result.attempts[0]!.error as ProviderError;
      expect(ProviderError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ status: 1008, retryable: false });
      expect(failure.isAuthError).toBe(true);
      expect((await eleven.sockets[0]!.closed).code).toBe(1008);
    } finally {
      await router.close();
    }
  });
});
