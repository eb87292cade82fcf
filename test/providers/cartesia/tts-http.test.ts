import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { isTakeable, type Takeable } from '../../../src/internal/takeable.js';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { ProviderAudio } from '../../../src/providers/types.js';
import { mockCartesiaAudio, mockWordTimestamps } from '../../../src/testing/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { readAllByTake } from '../../helpers/read-by-take.js';
import {
  API_KEY,
  collect,
  collectUntilError,
  concat,
  expectNoKey,
  type Loopback,
  startLoopback,
} from './helpers.js';

let loop: Loopback | undefined;
afterEach(async () => {
  await loop?.close();
  loop = undefined;
});

const text = 'Your table is booked.';

const FORMATS: AudioFormat[] = [
  { encoding: 'pcm_s16le', sampleRate: 24000 },
  { encoding: 'pcm_s16le', sampleRate: 22050 },
  { encoding: 'pcm_f32le', sampleRate: 16000 },
  { encoding: 'pcm_f32le', sampleRate: 44100 },
  { encoding: 'mulaw', sampleRate: 8000 },
  { encoding: 'alaw', sampleRate: 8000 },
  { encoding: 'alaw', sampleRate: 48000 },
];
const WIRE = {
  pcm_s16le: 'pcm_s16le',
  pcm_f32le: 'pcm_f32le',
  mulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
} as const;

describe('Cartesia TTS over /tts/bytes (loopback, undici)', () => {
  it.each(FORMATS)(
    'asks for $encoding at $sampleRate Hz natively and yields exactly the bytes sent, labelled so',
    async (format) => {
      loop = await startLoopback({ script: { chunkBytes: 1001 } });
      const adapter = loop.adapter();
      const chunks = await collect(
        adapter.tts!.synthesize({ text, voice: 'voice-1', format }, loop.attempt()),
      );
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) expect(chunk.format).toEqual(format);
      expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio(text, format));
      const [record] = loop.mock.requests;
      expect(record!.path).toBe('/tts/bytes');
      expect(record!.body).toEqual({
        model_id: 'sonic-3',
        transcript: text,
        voice: { mode: 'id', id: 'voice-1' },
        output_format: { container: 'raw', encoding: WIRE[format.encoding], sample_rate: format.sampleRate },
      });
      expect(record!.headers).toMatchObject({
        authorization: `Bearer ${API_KEY}`,
        'x-api-key': API_KEY,
        'cartesia-version': '2025-11-04',
        'content-type': 'application/json',
      });
    },
  );

  it.each([1001, 5])(
    'raw audio in %i-byte chunks is read by plain calls (take) after the sniffed head, every byte in order',
    async (chunkBytes) => {
      const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
      loop = await startLoopback({ script: { chunkBytes } });
      const audio = loop.adapter().tts!.synthesize({ text, voice: 'voice-1', format }, loop.attempt());
      const iterator = audio[Symbol.asyncIterator]();
      expect(isTakeable(iterator)).toBe(true);
      const chunks = await readAllByTake(iterator as Takeable<ProviderAudio>);
      for (const chunk of chunks) expect(chunk.format).toEqual(format);
      expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio(text, format));
    },
  );

  it('sends language (primary subtag), speed and the request model', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'bytes', language: 'de' } });
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
    await collect(
      adapter.tts!.synthesize(
        { text, voice: 'v', format, model: 'sonic-3.5', language: 'fr-CA', speed: 1.2 },
        loop.attempt(),
      ),
    );
    expect(loop.mock.requests[0]!.body).toMatchObject({
      model_id: 'sonic-3.5',
      language: 'fr',
      generation_config: { speed: 1.2 },
    });
  });

  it('reads a WAV answer with the header format (never relabelled: C11)', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter();
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
    // The adapter asks for raw; a test transport rewrites the body to ask the mock for WAV at 8 kHz.
    const attempt = loop.attempt();
    const inner = attempt.transport;
    attempt.transport = {
      ...inner,
      request: (req) =>
        inner.request({
          ...req,
          body: JSON.stringify({
            ...JSON.parse(req.body as string),
            output_format: { container: 'wav', encoding: 'pcm_mulaw', sample_rate: 8000 },
          }),
        }),
    };
    const chunks = await collect(adapter.tts!.synthesize({ text, voice: 'v', format }, attempt));
    const wavFormat: AudioFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };
    for (const chunk of chunks) expect(chunk.format).toEqual(wavFormat);
    expect(concat(chunks.map((c) => c.data))).toEqual(
      mockCartesiaAudio(text, { encoding: 'mulaw', sampleRate: 8000 }),
    );
  });

  it('HTTP 401 (wrong key) is a ProviderError, not retryable, with the message of the plain-text body and no key', async () => {
    loop = await startLoopback();
    const adapter = createCartesiaAdapter({
      name: 'cartesia',
      baseUrl: loop.server.url,
      apiKey: `${API_KEY}-wrong`,
      tts: { model: 'sonic-3' },
    });
    const { items, error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        loop.attempt(),
      ),
    );
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect({ status: e.status, retryable: e.retryable, auth: e.isAuthError, message: e.message }).toEqual({
      status: 401,
      retryable: false,
      auth: true,
      message: "Provider 'cartesia' answered HTTP 401: Unauthorized: Invalid API key",
    });
    expect(e.message.includes(`${API_KEY}-wrong`)).toBe(false);
    expectNoKey(error);
  });

  it('HTTP 429 with a structured body (Cartesia-Version 2026-03-01) gives error_code and Retry-After', async () => {
    loop = await startLoopback({ script: { failTimes: 1, failStatus: 429, retryAfter: '3' } });
    const adapter = loop.adapter({ version: '2026-03-01' });
    const { error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        loop.attempt(),
      ),
    );
    const e = error as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({
      status: e.status,
      retryable: e.retryable,
      retryAfterMs: e.retryAfterMs,
      message: e.message,
    }).toEqual({
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
      message: "Provider 'cartesia' answered HTTP 429: Too Many Requests: mock failure 1 of 1",
    });
    expect(loop.mock.requests[0]!.headers['cartesia-version']).toBe('2026-03-01');
    expectNoKey(error);
  });

  it('a 400 (an empty transcript) is not retryable and carries the provider message', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter();
    const { error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text: '   ', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        loop.attempt(),
      ),
    );
    expect((error as ProviderError).status).toBe(400);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toBe(
      "Provider 'cartesia' answered HTTP 400: Bad Request: transcript must not be empty",
    );
  });
});

describe('Cartesia TTS over /tts/sse (loopback, undici)', () => {
  it.each(FORMATS.slice(2, 5))(
    '$encoding at $sampleRate Hz: exact audio and word timings on the chunks after them',
    async (format) => {
      loop = await startLoopback({ script: { chunkBytes: 700 } });
      const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'sse' } });
      const chunks = await collect(
        adapter.tts!.synthesize({ text, voice: 'voice-1', format }, loop.attempt()),
      );
      expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio(text, format));
      for (const chunk of chunks) expect(chunk.format).toEqual(format);
      const words = chunks.flatMap((c) => c.words ?? []);
      const all = mockWordTimestamps(text, 0, text.length);
      // Every word but the last: its timestamps come after the last audio chunk, with no audio to carry them.
      expect(words).toEqual(
        all.words.slice(0, -1).map((word, i) => ({
          word,
          startMs: Math.round(all.start[i]! * 1000),
          endMs: Math.round(all.end[i]! * 1000),
        })),
      );
      expect(words.map((w) => w.word)).toEqual(['Your', 'table', 'is']);
      expect(loop.mock.requests[0]!.body).toMatchObject({
        add_timestamps: true,
        output_format: { container: 'raw', sample_rate: format.sampleRate },
      });
      expect(loop.mock.requests[0]!.headers.accept).toBe('text/event-stream');
    },
  );

  it('addTimestamps false leaves add_timestamps out and gives no words', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'sse', addTimestamps: false } });
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
    const chunks = await collect(adapter.tts!.synthesize({ text, voice: 'v', format }, loop.attempt()));
    expect(chunks.some((c) => c.words !== undefined)).toBe(false);
    expect(loop.mock.requests[0]!.body).not.toHaveProperty('add_timestamps');
  });

  it('an error event after audio (e.g. 429 concurrency) is a retryable ProviderError with partialOutput and the code', async () => {
    loop = await startLoopback({
      script: {
        chunkBytes: 4800,
        errorEventAfterChunks: 1,
        errorEvent: { code: 'concurrency_limited', message: 'Too many' },
      },
    });
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'sse' } });
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
    const { items, error } = await collectUntilError(
      adapter.tts!.synthesize({ text, voice: 'v', format }, loop.attempt()),
    );
    expect(concat(items.map((c) => c.data))).toEqual(mockCartesiaAudio(text, format).subarray(0, 4800));
    const e = error as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({ code: e.providerCode, retryable: e.retryable, partialOutput: e.partialOutput }).toEqual({
      code: 'concurrency_limited',
      retryable: true,
      partialOutput: true,
    });
  });

  it('a stream that ends without done is a ProtocolError (truncated)', async () => {
    loop = await startLoopback({ script: { endWithoutDone: true } });
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'sse' } });
    const { error } = await collectUntilError(
      adapter.tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        loop.attempt(),
      ),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe('TTS event stream ended before its done event (truncated)');
    expect((error as ProtocolError).partialOutput).toBe(true);
  });
});
