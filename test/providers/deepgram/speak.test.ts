import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/index.js';
import { AbortError, ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { createDeepgramAdapter } from '../../../src/providers/deepgram/index.js';
import { speakQuery } from '../../../src/providers/deepgram/speak.js';
import { sniffedBodyAudio } from '../../../src/providers/shared/sniffed-body-audio.js';
import { wavBodyAudio } from '../../../src/providers/shared/wav-body-audio.js';
import type { ProviderAudio, ProviderTtsRequest } from '../../../src/providers/types.js';
import {
  createDeepgramMock,
  createManualDelay,
  type DeepgramMockOptions,
  deepgramHandlers,
  type MockProvider,
  type MockServer,
  mockDeepgramSpeech,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { expectSameBytes } from '../../testing/helpers.js';
import { attemptOf, collect, collectUntilError, concat, KEY } from './helpers.js';

const PCM24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 };
const ULAW: AudioFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };

let http: HttpTransport;
let server: MockServer | undefined;
beforeAll(() => {
  http = createHttpTransport();
});
afterAll(async () => {
  await http.close();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(provider: MockProvider) {
  server = await startMockServer({ provider });
  return createDeepgramAdapter({ name: 'dg', baseUrl: server.url, apiKey: KEY, tts: {} }).tts!;
}

async function serveMock(options: DeepgramMockOptions = {}) {
  const mock = createDeepgramMock({ apiKey: KEY, ...options });
  return { mock, tts: await serve(mock) };
}

const request = (
  text: string,
  format: AudioFormat,
  extra: Partial<ProviderTtsRequest> = {},
): ProviderTtsRequest => ({
  text,
  voice: 'aura-2-thalia-en',
  format,
  ...extra,
});

describe('Deepgram speak adapter', () => {
  it('POSTs {text} to /v1/speak with every option in the query and streams the raw audio in the asked format', async () => {
    const { mock, tts } = await serveMock();
    const chunks = await collect(tts.synthesize(request('Hello there', PCM24K), attemptOf(http)));
    expectSameBytes(concat(chunks.map((c) => c.data)), mockDeepgramSpeech('Hello there', PCM24K));
    expect(chunks.every((c) => c.format === chunks[0]!.format)).toBe(true);
    expect(chunks[0]!.format).toEqual(PCM24K);
    const [record] = mock.requests;
    expect(record!.url).toBe(
      `${server!.url}/v1/speak?model=aura-2-thalia-en&encoding=linear16&sample_rate=24000&container=none`,
    );
    expect(record!.method).toBe('POST');
    expect(record!.body).toEqual({ text: 'Hello there' });
    expect(record!.headers.authorization).toBe(`Token ${KEY}`);
    expect(record!.headers['content-type']).toBe('application/json');
  });

  it('serves mu-law 8 kHz natively and sends speed in the query', async () => {
    const { mock, tts } = await serveMock();
    const chunks = await collect(tts.synthesize(request('Hi there', ULAW, { speed: 1.25 }), attemptOf(http)));
    expectSameBytes(concat(chunks.map((c) => c.data)), mockDeepgramSpeech('Hi there', ULAW, { speed: 1.25 }));
    expect(chunks[0]!.format).toEqual(ULAW);
    expect(new URL(mock.requests[0]!.url).search).toBe(
      '?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000&container=none&speed=1.25',
    );
  });

  it('declares raw formats only: linear16 at five rates, mu-law and A-law at 8 kHz; no streaming text', async () => {
    const { tts } = await serveMock();
    expect(tts.capabilities).toEqual({
      outputFormats: [
        { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 },
        { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        { encoding: 'pcm_s16le', sampleRate: 8000, channels: 1 },
        { encoding: 'pcm_s16le', sampleRate: 32000, channels: 1 },
        { encoding: 'pcm_s16le', sampleRate: 48000, channels: 1 },
        { encoding: 'mulaw', sampleRate: 8000, channels: 1 },
        { encoding: 'alaw', sampleRate: 8000, channels: 1 },
      ],
      streamingText: false,
      wordTimestamps: false,
    });
    expect(() => speakQuery(request('x', { encoding: 'pcm_f32le', sampleRate: 24000 }), 'dg')).toThrow(
      'Deepgram /v1/speak cannot produce pcm_f32le@24000Hz',
    );
  });

  it('maps a 401 legacy error body to a non-retryable ProviderError without the key', async () => {
    const mock = createDeepgramMock({ apiKey: 'another-key-123456' });
    const tts = await serve(mock);
    const { error } = await collectUntilError(tts.synthesize(request('Hi', PCM24K), attemptOf(http)));
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.status, e.retryable, e.providerCode, e.isAuthError]).toEqual([
      401,
      false,
      'INVALID_AUTH',
      true,
    ]);
    expect(e.message).toBe("Provider 'dg' answered HTTP 401: Invalid credentials.");
    expect(e.message).not.toContain(KEY);
  });

  it('maps 429 with Retry-After and a modern {category, message} body to a retryable ProviderError', async () => {
    const { tts } = await serveMock({
      script: {
        speak: {
          failTimes: 1,
          failStatus: 429,
          retryAfter: '2',
          failBody: { category: 'TOO_MANY_REQUESTS', message: 'Slow down', details: 'x', request_id: 'r' },
        },
      },
    });
    const { error } = await collectUntilError(tts.synthesize(request('Hi', PCM24K), attemptOf(http)));
    const e = error as ProviderError;
    expect(ProviderError.isInstance(e)).toBe(true);
    expect([e.status, e.retryable, e.retryAfterMs, e.providerType]).toEqual([
      429,
      true,
      2000,
      'TOO_MANY_REQUESTS',
    ]);
    expect(e.message).toContain('Slow down');
  });

  it('maps a plain-text 503 body to a retryable ProviderError holding the text', async () => {
    const { tts } = await serveMock({
      script: { speak: { failTimes: 1, failStatus: 503, failBody: 'upstream unavailable' } },
    });
    const { error } = await collectUntilError(tts.synthesize(request('Hi', PCM24K), attemptOf(http)));
    expect(error).toMatchObject({
      status: 503,
      retryable: true,
      message: "Provider 'dg' answered HTTP 503: upstream unavailable",
    });
  });

  it('a 200 JSON answer is a ProtocolError, not audio', async () => {
    const tts = await serve({
      requests: [],
      handle: async () => Response.json({ note: 'not audio' }),
    });
    const { items, error } = await collectUntilError(tts.synthesize(request('Hi', PCM24K), attemptOf(http)));
    expect(items).toEqual([]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe(
      "Speak answer has Content-Type 'application/json', not audio",
    );
  });

  it('C11: a WAV body despite container=none is labelled from its header, never relabelled', async () => {
    const pcm16k: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
    const samples = syntheticAudio({ durationMs: 50, format: pcm16k });
    const tts = await serve({
      requests: [],
      handle: async () =>
        new Response(Buffer.from(encodeWav(pcm16k, samples)), {
          headers: { 'content-type': 'application/octet-stream' },
        }),
    });
    const chunks = await collect(tts.synthesize(request('Hi', PCM24K), attemptOf(http)));
    expect(chunks.map((c) => c.format)).toEqual(
      chunks.map(() => ({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 })),
    );
    expectSameBytes(concat(chunks.map((c) => c.data)), samples);
  });

  it('aborting mid-body throws AbortError and closes the connection (the mock sees the client go away)', async () => {
    const time = createManualDelay();
    const { mock, tts } = await serveMock({
      delay: time.delay,
      script: { speak: { chunkGapMs: 50, chunkBytes: 800 } },
    });
    const controller = new AbortController();
    const seen: ProviderAudio[] = [];
    const failing = (async () => {
      try {
        for await (const chunk of tts.synthesize(
          request('Hello there', ULAW),
          attemptOf(http, { signal: controller.signal }),
        )) {
          seen.push(chunk);
          controller.abort();
        }
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    const error = await failing;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(await mock.requests[0]!.ended).toBe('aborted');
  });
});

describe('the speak body readers (sniffedBodyAudio, wavBodyAudio)', () => {
  async function* bytes(...chunks: number[][]) {
    for (const chunk of chunks) yield new Uint8Array(chunk);
  }
  const sniffed = async (format: AudioFormat, ...chunks: number[][]) => {
    const audio = await sniffedBodyAudio(
      'dg',
      { status: 200, headers: {}, body: bytes(...chunks), cancel: async () => {} },
      format,
    );
    return { [Symbol.asyncIterator]: () => audio };
  };

  it('labels raw bytes with the asked format, also when the body is shorter than a WAV header', async () => {
    const out = await collect(await sniffed(ULAW, [1, 2, 3], [4, 5]));
    expect(out).toEqual([{ data: new Uint8Array([1, 2, 3, 4, 5]), format: ULAW }]);
  });

  it('finds a WAV header split over one-byte chunks', async () => {
    const alaw: AudioFormat = { encoding: 'alaw', sampleRate: 8000 };
    const wav = encodeWav(alaw, new Uint8Array([9, 8, 7]));
    const out = await collect(await sniffed(ULAW, ...[...wav].map((b) => [b])));
    expect(concat(out.map((c) => c.data))).toEqual(new Uint8Array([9, 8, 7]));
    expect(out.every((c) => c.format.encoding === 'alaw' && c.format.sampleRate === 8000)).toBe(true);
  });

  it('a WAV body cut inside its data is a ProtocolError with partialOutput', async () => {
    const wav = encodeWav(PCM24K, new Uint8Array(100)).subarray(0, 44 + 60);
    const { items, error } = await collectUntilError(wavBodyAudio('dg', bytes([...wav])));
    expect(concat(items.map((c) => c.data)).byteLength).toBe(60);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect([(error as ProtocolError).partialOutput, (error as ProtocolError).provider]).toEqual([true, 'dg']);
  });
});

describe('Deepgram speak adapter through msw', () => {
  const mock = createDeepgramMock({ apiKey: KEY });
  const msw = setupServer(...deepgramHandlers({ provider: mock }));
  const fetchTransport = createHttpTransport({ fetch: (...args) => globalThis.fetch(...args) });
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    msw.close();
    await fetchTransport.close();
  });

  it('streams the same bytes from the default host https://api.deepgram.com', async () => {
    const tts = createDeepgramAdapter({
      name: 'dg',
      baseUrl: 'https://api.deepgram.com',
      apiKey: KEY,
      tts: {},
    }).tts!;
    const chunks = await collect(tts.synthesize(request('Hello', ULAW), attemptOf(fetchTransport)));
    expectSameBytes(concat(chunks.map((c) => c.data)), mockDeepgramSpeech('Hello', ULAW));
    expect(mock.requests[0]!.url).toBe(
      'https://api.deepgram.com/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000&container=none',
    );
  });
});
