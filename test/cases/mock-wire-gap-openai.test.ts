/**
 * Wire gaps of the OpenAI-compatible mock, seen by the official `openai` client:
 * - `POST /v1/audio/transcriptions` with `response_format=verbose_json` and
 *   `timestamp_granularities[]=word` answered without `words`, so an app reading word times got
 *   `undefined`; it now returns `words: [{word, start, end}]` (seconds), `segments` only when
 *   `segment` is asked for too (or nothing is: OpenAI's default), and refuses granularities
 *   without `verbose_json` as OpenAI does;
 * - `GET /v1/models` listed only the configured ids (none by default), so a client that checks
 *   for `whisper-1` before transcribing failed; it now lists the configured ids, then
 *   DEFAULT_MOCK_MODELS.
 */

import OpenAI, { BadRequestError, toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/wav-writer.js';
import {
  createOpenAiCompatibleMock,
  DEFAULT_MOCK_MODELS,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Parameters<typeof createOpenAiCompatibleMock>[0] = {}) {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', ...options });
  server = await startMockServer({ provider: mock });
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  return { mock, openai, url: server.url };
}

/** 2.6 s of silence at 16 kHz: with the 26-character default transcript, 0.1 s a character. */
const wav = encodeWav({ encoding: 'pcm_s16le', sampleRate: 16000 }, new Uint8Array(2.6 * 16000 * 2));

describe('transcriptions: verbose_json with word timestamps', () => {
  it('timestamp_granularities[]=word gives words with start/end in seconds and no segments', async () => {
    const { mock, openai } = await serve();
    const result = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'turn.wav', { type: 'audio/wav' }),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(result).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 2.6,
      text: 'This is a mock transcript.',
      words: [
        { word: 'This', start: 0, end: 0.4 },
        { word: 'is', start: 0.5, end: 0.7 },
        { word: 'a', start: 0.8, end: 0.9 },
        { word: 'mock', start: 1, end: 1.4 },
        { word: 'transcript', start: 1.5, end: 2.5 },
      ],
    });
    const form = mock.requests[0]!.form!;
    expect([form.model, form.response_format, form['timestamp_granularities[]']]).toEqual([
      'whisper-1',
      'verbose_json',
      'word',
    ]);
  });

  it('word and segment (a repeated field, as raw multipart sends it) give both, segments after words', async () => {
    const { url } = await serve({ transcript: 'Hello there. Bye.' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'turn.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key' },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['task', 'language', 'duration', 'text', 'words', 'segments']);
    // 17 characters over 2.6 s
    expect(body.words).toEqual([
      { word: 'Hello', start: 0, end: 0.765 },
      { word: 'there', start: 0.918, end: 1.682 },
      { word: 'Bye', start: 1.988, end: 2.447 },
    ]);
    expect((body.segments as Array<{ text: string }>).map((s) => s.text)).toEqual(['Hello there. ', 'Bye.']);
  });

  it('no granularity keeps segments only; granularities without verbose_json or unknown ones are a 400', async () => {
    const { openai } = await serve();
    const file = () => toFile(wav, 'turn.wav', { type: 'audio/wav' });
    const plain = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(Object.keys(plain)).toEqual(['task', 'language', 'duration', 'text', 'segments']);

    const json = await openai.audio.transcriptions
      .create({ file: await file(), model: 'whisper-1', timestamp_granularities: ['word'] })
      .catch((e: unknown) => e);
    expect(json).toBeInstanceOf(BadRequestError);
    expect((json as BadRequestError).error).toEqual({
      message: "timestamp_granularities[] needs response_format 'verbose_json'",
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    });

    const unknown = await openai.audio.transcriptions
      .create({
        file: await file(),
        model: 'whisper-1',
        response_format: 'verbose_json',
        timestamp_granularities: ['letter' as 'word'],
      })
      .catch((e: unknown) => e);
    expect((unknown as BadRequestError).status).toBe(400);
    expect((unknown as BadRequestError).message).toBe(
      "400 Invalid value 'letter' for timestamp_granularities[]: expected 'word' or 'segment'",
    );
  });
});

describe('GET /v1/models', () => {
  const entry = (id: string) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'voxroute-mock' });

  it('DEFAULT_MOCK_MODELS is the documented list', () => {
    expect(DEFAULT_MOCK_MODELS).toEqual([
      'gpt-4o-mini',
      'gpt-4o-mini-tts',
      'tts-1',
      'gpt-4o-mini-transcribe',
      'whisper-1',
    ]);
    expect(Object.isFrozen(DEFAULT_MOCK_MODELS)).toBe(true);
  });

  it('with no models configured: exactly the defaults, byte for byte, and each can be retrieved', async () => {
    const { openai, url } = await serve();
    const response = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer test-key' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      JSON.stringify({ object: 'list', data: DEFAULT_MOCK_MODELS.map(entry) }),
    );
    expect(await openai.models.retrieve('whisper-1')).toEqual(entry('whisper-1'));
  });

  it('configured ids come first, then the defaults not among them (each id once)', async () => {
    const { openai } = await serve({ models: ['meta-llama/Llama-3.1-8B-Instruct', 'whisper-1'] });
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual([
      'meta-llama/Llama-3.1-8B-Instruct',
      'whisper-1',
      'gpt-4o-mini',
      'gpt-4o-mini-tts',
      'tts-1',
      'gpt-4o-mini-transcribe',
    ]);
  });
});
