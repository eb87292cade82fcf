/**
 * Wire gap of the OpenAI-compatible mock (dialect `openai`): OpenAI's speech endpoint does not
 * take `stream_format: 'sse'` for `tts-1` and `tts-1-hd` (PROTOCOLS.md 2.3, OAS
 * `CreateSpeechRequest.stream_format`: "sse is not supported for tts-1 or tts-1-hd"). The mock
 * streamed SSE audio for them, so an app asking tts-1 for SSE passed its CI and failed against
 * OpenAI. It now refuses them with a 400 in OpenAI's error shape; `gpt-4o-mini-tts` still
 * streams SSE, tts-1 still streams audio, and the self-hosted dialects keep their own rules.
 */

import OpenAI, { BadRequestError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAiCompatibleMock,
  type MockServer,
  mockSpeechPcm,
  type OpenAiDialect,
  startMockServer,
} from '../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(dialect: OpenAiDialect = 'openai') {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', dialect });
  server = await startMockServer({ provider: mock });
  return { mock, openai: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 }) };
}

const MESSAGE = "stream_format 'sse' is not supported for tts-1 or tts-1-hd";

describe("POST /audio/speech with stream_format 'sse'", () => {
  it.each(['tts-1', 'tts-1-hd', 'tts-1-hd-1106'])(
    '%s: a 400 BadRequestError with OpenAI’s error body, before any audio',
    async (model) => {
      const { mock, openai } = await client();
      const error = await openai.audio.speech
        .create({ model, voice: 'alloy', input: 'Hi.', response_format: 'pcm', stream_format: 'sse' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).status).toBe(400);
      expect((error as BadRequestError).error).toEqual({
        message: MESSAGE,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_request_error',
      });
      expect(mock.requests.map((r) => [r.endpoint, r.status, r.chunksSent])).toEqual([['speech', 400, 0]]);
    },
  );

  it('gpt-4o-mini-tts streams the SSE audio; tts-1 without SSE streams the raw audio', async () => {
    const { openai } = await client();
    const sse = await openai.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      input: 'Hi.',
      response_format: 'pcm',
      stream_format: 'sse',
    });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await sse.text()).split('\n\n').filter((f) => f !== '');
    expect(frames.at(-1)).toBe(
      'data: {"type":"speech.audio.done","usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}',
    );

    const raw = await openai.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hi.',
      response_format: 'pcm',
    });
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(mockSpeechPcm('Hi.'));
  });

  it('speaches takes SSE whatever the model is called', async () => {
    const { openai } = await client('speaches');
    const response = await openai.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hi.',
      stream_format: 'sse',
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    await response.body?.cancel();
  });
});
