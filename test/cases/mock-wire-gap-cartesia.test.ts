/**
 * Wire gap of the Cartesia mock: batch speech-to-text, `POST /stt` (cartesia-js
 * `stt.transcribe`: multipart `file`, `model`, `language`, `timestamp_granularities[]`; query
 * `encoding`, `sample_rate`), was a 404, so an app transcribing uploaded files could not run
 * against the mock. It now answers
 * `{"type":"transcript","text","duration","language","request_id"}`, with
 * `words: [{word, start, end}]` when word timestamps are asked for, under the same auth as the
 * other endpoints (`Authorization: Bearer` or `X-API-Key`) and Cartesia's error bodies.
 */

import { createRequire } from 'node:module';
import type CartesiaClient from '@cartesia/cartesia-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/wav-writer.js';
import {
  type CartesiaMock,
  createCartesiaMock,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';

// The CommonJS build, as the other official-client tests load it.
const { Cartesia, toFile } = createRequire(import.meta.url)('@cartesia/cartesia-js') as {
  Cartesia: typeof CartesiaClient;
  toFile: typeof import('@cartesia/cartesia-js').toFile;
};

const apiKey = ['mock', 'cartesia', 'key', '4242'].join('-');
const REQUEST_ID = /^00000000-0000-4000-8000-[0-9a-f]{12}$/;
let server: MockServer;
let mock: CartesiaMock;
let client: CartesiaClient;

beforeAll(async () => {
  mock = createCartesiaMock({
    apiKey,
    transcript: ({ audio }) => (audio.byteLength > 44 ? 'How are you' : ''),
  });
  server = await startMockServer({ provider: mock });
  client = new Cartesia({ apiKey, baseURL: server.url, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});

/** 1.5 s of 16 kHz silence: three words of 0.5 s each. */
const wav = encodeWav({ encoding: 'pcm_s16le', sampleRate: 16000 }, new Uint8Array(1.5 * 16000 * 2));

describe('POST /stt (batch) with the official cartesia-js client', () => {
  it('a WAV with word timestamps: the documented response shape, exact values', async () => {
    // The mock serves the whole file: count only this test's calls, whatever ran before it.
    const callsBefore = mock.calls('stt');
    const result = await client.stt.transcribe({
      file: await toFile(wav, 'turn.wav', { type: 'audio/wav' }),
      model: 'ink-whisper',
      language: 'en',
      timestamp_granularities: ['word'],
    });
    expect(result).toEqual({
      type: 'transcript',
      text: 'How are you',
      duration: 1.5,
      language: 'en',
      request_id: expect.stringMatching(REQUEST_ID),
      words: [
        { word: 'How', start: 0, end: 0.4 },
        { word: 'are', start: 0.5, end: 0.9 },
        { word: 'you', start: 1, end: 1.4 },
      ],
    });
    const record = mock.requests.at(-1)!;
    expect([record.endpoint, record.method, record.path, record.status]).toEqual([
      'stt',
      'POST',
      '/stt',
      200,
    ]);
    expect(record.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(record.headers['cartesia-version']).toBe('2026-08-14'); // what cartesia-js 4.2 sends
    expect(record.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect([record.form!.model, record.form!.language, record.form!['timestamp_granularities[]']]).toEqual([
      'ink-whisper',
      'en',
      'word',
    ]);
    expect(mock.calls('stt') - callsBefore).toBe(1);
  });

  it('raw PCM with encoding and sample_rate in the query: duration from the byte count, no words unless asked', async () => {
    const raw = new Uint8Array(8000 * 2 * 2); // 2 s at 8 kHz, 16-bit
    const result = await client.stt.transcribe({
      file: await toFile(raw, 'turn.raw'),
      model: 'ink-whisper',
      encoding: 'pcm_s16le',
      sample_rate: 8000,
    });
    expect(result).toEqual({
      type: 'transcript',
      text: 'How are you',
      duration: 2,
      language: 'en',
      request_id: expect.stringMatching(REQUEST_ID),
    });
    expect(new URL(mock.requests.at(-1)!.url).search).toBe('?encoding=pcm_s16le&sample_rate=8000');
  });

  it('raw multipart with X-API-Key; a missing model, a bad granularity or a wrong key are refused', async () => {
    const post = (form: FormData, key = apiKey) =>
      fetch(`${server.url}/stt`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Cartesia-Version': '2026-03-01' },
        body: form,
      });
    const form = (fields: Record<string, string>) => {
      const out = new FormData();
      out.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'turn.wav');
      for (const [name, value] of Object.entries(fields)) out.append(name, value);
      return out;
    };

    const ok = await post(form({ model: 'ink-whisper' }));
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'application/json']);
    const body = (await ok.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['type', 'text', 'duration', 'language', 'request_id']);

    const noModel = await post(form({}));
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toEqual({
      error_code: null,
      title: 'Bad Request',
      message: 'model is required',
      request_id: expect.stringMatching(REQUEST_ID),
    });

    const segment = await post(form({ model: 'ink-whisper', 'timestamp_granularities[]': 'segment' }));
    expect(segment.status).toBe(400);
    expect(((await segment.json()) as { message: string }).message).toBe(
      'timestamp_granularities must be "word", got "segment"',
    );

    const wrong = await post(form({ model: 'ink-whisper' }), 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toBe('Invalid API key');
  });
});

describe('POST /stt scripts', () => {
  it('the per-endpoint key `stt` scripts the batch endpoint: a scripted 503, then the transcript', async () => {
    const scripted = createCartesiaMock({ apiKey, script: { stt: [{ failTimes: 1, failStatus: 503 }] } });
    const local = await startMockServer({ provider: scripted });
    try {
      const official = new Cartesia({ apiKey, baseURL: local.url, maxRetries: 0 });
      const params = async () => ({
        file: await toFile(wav, 'turn.wav', { type: 'audio/wav' }),
        model: 'ink-whisper',
      });
      const failed = await official.stt.transcribe(await params()).catch((e: unknown) => e);
      expect((failed as { status?: number }).status).toBe(503);
      expect((await official.stt.transcribe(await params())).text).toBe('This is a mock transcript.');
      expect(scripted.requests.map((r) => [r.endpoint, r.call, r.status])).toEqual([
        ['stt', 1, 503],
        ['stt', 2, 200],
      ]);
    } finally {
      await local.close();
    }
  });
});

describe('POST /stt through msw (cartesiaHandlers)', () => {
  it('the official client reaches the batch endpoint at the real base URL', async () => {
    const { setupServer } = await import('msw/node');
    const { cartesiaHandlers } = await import('../../src/testing/index.js');
    const shared = createCartesiaMock({ apiKey, transcript: 'Fine thanks' });
    const msw = setupServer(...cartesiaHandlers({ baseUrl: 'https://api.cartesia.ai', provider: shared }));
    // 'bypass': the interceptor also sees a stray internal request (`GET null`) of the runtime;
    // the records below prove the transcription went through the handlers.
    msw.listen({ onUnhandledRequest: 'bypass' });
    try {
      const official = new Cartesia({ apiKey, maxRetries: 0 });
      const result = await official.stt.transcribe({
        file: await toFile(wav, 'turn.wav', { type: 'audio/wav' }),
        model: 'ink-whisper',
        timestamp_granularities: ['word'],
      });
      expect([result.text, result.duration, result.words]).toEqual([
        'Fine thanks',
        1.5,
        [
          { word: 'Fine', start: 0, end: 0.6 },
          { word: 'thanks', start: 0.75, end: 1.35 },
        ],
      ]);
      expect(shared.requests.map((r) => [r.endpoint, r.url])).toEqual([
        ['stt', 'https://api.cartesia.ai/stt'],
      ]);
    } finally {
      msw.close();
    }
  });
});
