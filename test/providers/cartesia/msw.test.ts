import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import {
  cartesiaHandlers,
  createCartesiaMock,
  mockCartesiaAudio,
} from '../../../src/testing/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { mswFetchTransport } from '../../helpers/msw-fetch.js';
import { API_KEY, collect, collectUntilError, concat } from './helpers.js';

const BASE = 'https://api.cartesia.ai';
const text = 'Hi there.';
const { msw: server, attempt } = mswFetchTransport();
const adapter = (tts: 'bytes' | 'sse') =>
  createCartesiaAdapter({ name: 'cartesia', apiKey: API_KEY, tts: { model: 'sonic-3', transport: tts } });

describe('Cartesia adapter through msw (HTTP, fetch transport)', () => {
  it.each(['bytes', 'sse'] as const)('/tts/%s: mu-law 8 kHz asked natively, exact audio', async (kind) => {
    const mock = createCartesiaMock({ apiKey: API_KEY });
    server.use(...cartesiaHandlers({ provider: mock }));
    const format: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const chunks = await collect(adapter(kind).tts!.synthesize({ text, voice: 'v', format }, attempt()));
    expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio(text, format));
    expect(mock.requests[0]!.url).toBe(`${BASE}/tts/${kind}`);
    expect(mock.requests[0]!.body).toMatchObject({
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
    });
  });

  it('a 503 from the mock is a retryable ProviderError', async () => {
    server.use(...cartesiaHandlers({ apiKey: API_KEY, script: { failTimes: 1, failStatus: 503 } }));
    const { error } = await collectUntilError(
      adapter('bytes').tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attempt(),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({
      status: (error as ProviderError).status,
      retryable: (error as ProviderError).retryable,
    }).toEqual({
      status: 503,
      retryable: true,
    });
  });

  it('/tts/bytes labelled audio/wav but holding raw samples (the spec types every answer audio/wav) is read as raw', async () => {
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
    const audio = mockCartesiaAudio(text, format);
    server.use(
      http.post(
        `${BASE}/tts/bytes`,
        () => new HttpResponse(audio, { headers: { 'content-type': 'audio/wav' } }),
      ),
    );
    const chunks = await collect(adapter('bytes').tts!.synthesize({ text, voice: 'v', format }, attempt()));
    expect(concat(chunks.map((c) => c.data))).toEqual(audio);
    for (const chunk of chunks) expect(chunk.format).toEqual(format);
  });

  it('/tts/bytes answering compressed audio (audio/mpeg) is a ProtocolError, not mislabelled PCM (C11)', async () => {
    server.use(
      http.post(
        `${BASE}/tts/bytes`,
        () =>
          new HttpResponse(new Uint8Array([0xff, 0xfb, 0x90, 0x44]), {
            headers: { 'content-type': 'audio/mpeg' },
          }),
      ),
    );
    const { items, error } = await collectUntilError(
      adapter('bytes').tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attempt(),
      ),
    );
    expect(items).toEqual([]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe(
      "/tts/bytes answered with Content-Type 'audio/mpeg', not the raw audio or WAV asked for",
    );
  });

  it('/tts/sse with a chunk whose data is not base64 is a ProtocolError', async () => {
    server.use(
      http.post(
        `${BASE}/tts/sse`,
        () =>
          new HttpResponse('data: {"type":"chunk","data":"%%%%","done":false}\n\n', {
            headers: { 'content-type': 'text/event-stream' },
          }),
      ),
    );
    const { error } = await collectUntilError(
      adapter('sse').tts!.synthesize(
        { text, voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attempt(),
      ),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe('Audio chunk is not base64 (4 characters)');
  });
});
