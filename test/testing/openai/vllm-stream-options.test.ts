/**
 * vLLM's `stream_options` (PROTOCOLS.md 6.1; vLLM's request models): a non-empty one on a
 * request that is not streamed is refused with a 400 naming the parameter (the mock answered
 * 200 in the vllm dialect), and `continuous_usage_stats: true` puts the usage so far on every
 * chunk (the mock sent `usage: null` there). Through the official client, as an app sees it.
 */
import OpenAI, { BadRequestError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleMock, type MockServer, startMockServer } from '../../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const messages = [{ role: 'user' as const, content: 'Book a table for four.' }];

async function client(): Promise<OpenAI> {
  server = await startMockServer({
    provider: createOpenAiCompatibleMock({ apiKey: 'k', dialect: 'vllm', chat: 'Your table is booked.' }),
  });
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
}

describe('OpenAI-compatible mock, vllm dialect: stream_options as vLLM reads it', () => {
  it('stream_options on a request that is not streamed: 400 BadRequestError naming stream_options', async () => {
    const openai = await client();
    const error = await openai.chat.completions
      .create({ model: 'm', messages, stream_options: { include_usage: true } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).error).toEqual({
      message: 'Stream options can only be defined when `stream=True`.',
      type: 'BadRequestError',
      param: 'stream_options',
      code: 400,
    });
    // An empty object is false to vLLM's check: the completion is answered.
    const reply = await openai.chat.completions.create({ model: 'm', messages, stream_options: {} });
    expect(reply.choices[0]?.message.content).toBe('Your table is booked.');
  });

  it('continuous_usage_stats: every chunk carries the usage so far, then the usage chunk', async () => {
    const openai = await client();
    const stream = await openai.chat.completions.create({
      model: 'm',
      messages,
      stream: true,
      stream_options: {
        include_usage: true,
        continuous_usage_stats: true,
      } as OpenAI.ChatCompletionStreamOptions,
    });
    const seen: Array<[string, number | null]> = [];
    for await (const chunk of stream) {
      const what = chunk.choices[0]?.delta.content ?? chunk.choices[0]?.finish_reason ?? 'usage';
      seen.push([what, chunk.usage?.completion_tokens ?? null]);
      expect(chunk.usage).toMatchObject({ prompt_tokens: 6 });
    }
    expect(seen).toEqual([
      ['', 0],
      ['Your ', 1],
      ['table ', 2],
      ['is ', 3],
      ['booked.', 4],
      ['stop', 4],
      ['usage', 4],
    ]);
  });
});
