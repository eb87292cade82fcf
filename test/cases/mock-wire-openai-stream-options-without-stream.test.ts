/**
 * Wire gap of the OpenAI-compatible mock (dialect `openai`): OpenAI refuses `stream_options`
 * on a chat completion that is not streamed (the official client's `ChatCompletionStreamOptions`:
 * "Only set this when you set `stream: true`") with a 400
 * `{"error":{"message":"The 'stream_options' parameter is only allowed when 'stream' is enabled.",
 * "type":"invalid_request_error","param":"stream_options","code":null}}` (quoted in
 * BerriAI/litellm#5803). The mock answered the completion, so an app that shares one set of
 * parameters between streamed and whole completions passed its CI and failed against OpenAI.
 * It now answers that 400; a streamed request with `stream_options`, and a whole one without
 * them (or with `stream_options: null`), are served as before.
 */

import OpenAI, { BadRequestError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleMock, type MockServer, startMockServer } from '../../src/testing/index.js';
import { collect } from '../helpers/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve() {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', chat: 'Booked.' });
  server = await startMockServer({ provider: mock });
  return { mock, openai: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 }) };
}

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Book it.' }] };

describe('stream_options on a chat completion that is not streamed', () => {
  it('is the 400 OpenAI sends, with param stream_options and a null code', async () => {
    const { mock, openai } = await serve();
    const error = await openai.chat.completions
      .create({ ...ask, stream_options: { include_usage: true } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect([bad.status, bad.param, bad.code, bad.type]).toEqual([
      400,
      'stream_options',
      null,
      'invalid_request_error',
    ]);
    expect(bad.error).toEqual({
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      type: 'invalid_request_error',
      param: 'stream_options',
      code: null,
    });
    expect(mock.requests.map((r) => [r.endpoint, r.status])).toEqual([['chat', 400]]);
  });

  it('stream: false with stream_options is refused too; stream_options: null, or streamed, is served', async () => {
    const { openai } = await serve();
    const refused = await openai.chat.completions
      .create({ ...ask, stream: false, stream_options: { include_usage: false } })
      .catch((e: unknown) => e);
    expect((refused as BadRequestError).status).toBe(400);

    const whole = await openai.chat.completions.create({ ...ask, stream_options: null });
    expect(whole.choices[0]!.message.content).toBe('Booked.');

    const streamed = await openai.chat.completions.create({
      ...ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(streamed);
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });
});
