import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  createRouter,
  ProviderError,
  type RouterConfig,
  TimeoutError,
} from '../../../src/index.js';
import {
  type CartesiaMock,
  cartesiaHandlers,
  createCartesiaMock,
  mockCartesiaAudio,
} from '../../../src/testing/cartesia/index.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMock,
  openAiCompatibleHandlers,
} from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/mock-server.js';
import { syntheticAudio } from '../../../src/testing/synthetic-audio.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { collect } from '../../helpers/index.js';
import { FakeClock } from '../../transport/fake-clock.js';
import { API_KEY, concat, until } from './helpers.js';

type Mode = 'loopback' | 'msw';
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const text = 'Your table is booked.';
const ulaw: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A router over [Cartesia mock, OpenAI-compatible mock] for TTS and [Cartesia] for STT. */
async function serve(mode: Mode, sonic: CartesiaMock, ec2: OpenAiCompatibleMock) {
  let urls: [string, string];
  if (mode === 'loopback') {
    const [a, b] = await Promise.all([
      startMockServer({ provider: sonic }),
      startMockServer({ provider: ec2 }),
    ]);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    urls = [a.url, `${b.url}/v1`];
  } else {
    urls = ['https://api.cartesia.ai', 'http://ec2.mock.test/v1'];
    msw.use(
      ...cartesiaHandlers({ baseUrl: urls[0], provider: sonic }),
      ...openAiCompatibleHandlers({ baseUrl: urls[1], provider: ec2 }),
    );
  }
  const config: RouterConfig = {
    providers: {
      sonic: {
        kind: 'cartesia',
        baseUrl: urls[0],
        apiKey: API_KEY,
        tts: { model: 'sonic-3', voices: { agent: 'cartesia-voice-1' } },
        stt: { model: 'ink-whisper' },
      },
      ec2: {
        kind: 'openai-compatible',
        baseUrl: urls[1],
        tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
      },
    },
    routes: {
      tts: { providers: ['sonic', 'ec2'], strategy: 'priority' },
      stt: { providers: ['sonic'], strategy: 'priority' },
    },
  };
  const router = createRouter(
    config,
    mode === 'msw' ? { fetch: (input, init) => globalThis.fetch(input, init) } : {},
  );
  closers.push(() => router.close());
  return router;
}

describe.each<Mode>(['loopback', 'msw'])('createRouter with a Cartesia provider (%s)', (mode) => {
  it("the caller's mu-law 8 kHz is asked natively from Cartesia and delivered byte for byte (no conversion)", async () => {
    const sonic = createCartesiaMock({ apiKey: API_KEY });
    const ec2 = createOpenAiCompatibleMock();
    const router = await serve(mode, sonic, ec2);
    const stream = router.tts({ text, voice: 'agent', format: ulaw });
    const chunks: AudioChunk[] = await collect(stream);
    expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio(text, ulaw));
    for (const chunk of chunks) expect(chunk.format).toEqual(ulaw);
    expect((await stream.result).provider).toBe('sonic');
    expect(sonic.requests).toHaveLength(1);
    expect(sonic.requests[0]!.body).toMatchObject({
      model_id: 'sonic-3',
      voice: { mode: 'id', id: 'cartesia-voice-1' },
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
    });
    expect(ec2.requests).toHaveLength(0);
  });

  it('Cartesia answering 503 falls back to the OpenAI-compatible provider, audio in the caller format', async () => {
    const sonic = createCartesiaMock({
      apiKey: API_KEY,
      script: { bytes: [{ failTimes: 1, failStatus: 503 }] },
    });
    const ec2 = createOpenAiCompatibleMock();
    const router = await serve(mode, sonic, ec2);
    const stream = router.tts({ text, voice: 'agent', format: ulaw });
    const chunks = await collect(stream);
    // 21 characters at 60 ms: 1260 ms of audio, 10080 mu-law bytes at 8 kHz once converted from 24 kHz PCM.
    expect(concat(chunks.map((c) => c.data)).byteLength).toBe(10080);
    for (const chunk of chunks) expect(chunk.format).toEqual(ulaw);
    const result = await stream.result;
    expect(result.provider).toBe('ec2');
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['sonic', 'failed'],
      ['ec2', 'success'],
    ]);
    const error = result.attempts[0]!.error;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({
      status: (error as ProviderError).status,
      retryable: (error as ProviderError).retryable,
    }).toEqual({
      status: 503,
      retryable: true,
    });
    expect(sonic.requests.map((r) => r.status)).toEqual([503]);
    expect(ec2.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ voice: 'af_heart', input: text }),
    ]);
  });

  it.skipIf(mode === 'msw')(
    'stt: the router streams audio to /stt/websocket and gets the final transcript',
    async () => {
      const sonic = createCartesiaMock({ apiKey: API_KEY, transcript: 'Book a table.' });
      const router = await serve(mode, sonic, createOpenAiCompatibleMock());
      const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
      const audio = syntheticAudio({ durationMs: 1000, format });
      const events = await collect(
        router.stt({
          audio: (async function* () {
            yield audio.subarray(0, 10000);
            yield audio.subarray(10000);
          })(),
          format,
        }),
      );
      expect(events.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
        ['final', 'Book a table.', 0, 933],
      ]);
      expect(sonic.sockets[0]!.frames.map((f) => (f.type === 'text' ? f.data : f.data.byteLength))).toEqual([
        10000,
        22000,
        'finalize',
        'close',
      ]);
    },
  );
});

describe('createRouter with a Cartesia WebSocket provider (loopback)', () => {
  it('C17: Cartesia accepts the context but sends no audio; the first-chunk deadline closes its socket and the next provider serves', async () => {
    const sonic = createCartesiaMock({
      apiKey: API_KEY,
      script: { 'tts-websocket': { stallAfterChunks: 0 } },
    });
    const ec2 = createOpenAiCompatibleMock();
    const [a, b] = await Promise.all([
      startMockServer({ provider: sonic }),
      startMockServer({ provider: ec2 }),
    ]);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const clock = new FakeClock();
    const router = createRouter(
      {
        providers: {
          sonic: {
            kind: 'cartesia',
            baseUrl: a.url,
            apiKey: API_KEY,
            tts: { voices: { agent: 'cartesia-voice-1' }, transport: 'websocket' },
          },
          ec2: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { agent: 'af_heart' } } },
        },
        routes: { tts: { providers: ['sonic', 'ec2'], strategy: 'priority', firstChunkTimeoutMs: 1500 } },
      },
      { clock },
    );
    closers.push(() => router.close());
    const stream = router.tts({ text, voice: 'agent', format: ulaw });
    const collecting = collect(stream);
    await until(() => sonic.sockets[0]?.messages.length === 1, 'Cartesia received the generation request');
    clock.advance(1500);
    const chunks = await collecting;
    expect(concat(chunks.map((c) => c.data)).byteLength).toBe(10080);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['sonic', 'failed'],
      ['ec2', 'success'],
    ]);
    const error = result.attempts[0]!.error;
    expect(TimeoutError.isInstance(error) && error.phase).toBe('first-chunk');
    // The stalled socket was actually closed, after a cancel of its context.
    const socket = sonic.sockets[0]!;
    expect(await socket.ended).toBe('aborted');
    expect(socket.closeCode).toBe(1000);
    expect(socket.messages.at(-1)).toEqual({
      context_id: (socket.messages[0] as { context_id: string }).context_id,
      cancel: true,
    });
  });
});
