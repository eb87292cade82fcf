import { describe, expect, it } from 'vitest';
import { createOpenAiCompatibleMock } from '../../../src/testing/index.js';
import { jsonRequest, sseJson } from '../helpers.js';

const messages = [{ role: 'user', content: 'Book a table for four.' }];
const base = {
  id: 'chatcmpl-mock-1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'small',
};
const choice = (delta: unknown, finish: string | null = null) => ({
  index: 0,
  delta,
  logprobs: null,
  finish_reason: finish,
});

describe('mock chat completions', () => {
  it('streams role chunk, word deltas, finish chunk, usage chunk with choices [], then [DONE] (PROTOCOLS 2.2)', async () => {
    const mock = createOpenAiCompatibleMock({ chat: 'Your table is booked.' });
    const response = await mock.handle(
      jsonRequest('/chat/completions', {
        model: 'small',
        stream: true,
        stream_options: { include_usage: true },
        messages,
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const chunk = (choices: unknown[], usage: unknown = null) => ({
      ...base,
      system_fingerprint: null,
      choices,
      usage,
    });
    expect(sseJson(await response.text())).toEqual([
      chunk([choice({ role: 'assistant', content: '' })]),
      chunk([choice({ content: 'Your ' })]),
      chunk([choice({ content: 'table ' })]),
      chunk([choice({ content: 'is ' })]),
      chunk([choice({ content: 'booked.' })]),
      chunk([choice({}, 'stop')]),
      chunk([], { prompt_tokens: 6, completion_tokens: 4, total_tokens: 10 }),
      '[DONE]',
    ]);
    expect(mock.requests[0]).toMatchObject({ outcome: 'completed', chunksSent: 8, status: 200 });
  });

  it('sends no usage chunk and no usage key without include_usage; vLLM includes usage once stream_options is present', async () => {
    const openai = createOpenAiCompatibleMock({ chat: 'Hi.' });
    const plain = sseJson(
      await (
        await openai.handle(jsonRequest('/chat/completions', { model: 'm', stream: true, messages }))
      ).text(),
    );
    expect(plain).toHaveLength(4);
    expect(plain[1]).not.toHaveProperty('usage');
    const vllm = createOpenAiCompatibleMock({ dialect: 'vllm', chat: 'Hi.' });
    const withUsage = sseJson(
      await (
        await vllm.handle(
          jsonRequest('/chat/completions', { model: 'm', stream: true, stream_options: {}, messages }),
        )
      ).text(),
    );
    expect(withUsage).toHaveLength(5);
    expect(withUsage[3]).toMatchObject({ choices: [], usage: { completion_tokens: 1 } });
  });

  it('streams tool calls as OpenAI tool-call deltas and finishes with tool_calls', async () => {
    const mock = createOpenAiCompatibleMock({
      chat: { toolCalls: [{ id: 'call_a', name: 'book', arguments: '{"table":4,"time":"19:00"}' }] },
    });
    const events = sseJson(
      await (
        await mock.handle(jsonRequest('/chat/completions', { model: 'small', stream: true, messages }))
      ).text(),
    ) as Array<{ choices: Array<{ delta: unknown; finish_reason: string | null }> }>;
    expect(events.slice(1, -1).map((event) => event.choices[0])).toEqual([
      choice({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'book', arguments: '' } }],
      }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '{"table":4' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: ',"time":"1' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '9:00"}' } }] }),
      choice({}, 'tool_calls'),
    ]);
  });

  it('answers a non-stream request with one chat.completion JSON', async () => {
    const mock = createOpenAiCompatibleMock({
      chat: { text: 'Done.', usage: { prompt_tokens: 3, completion_tokens: 1 } },
    });
    const response = await mock.handle(jsonRequest('/chat/completions', { model: 'small', messages }));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      id: 'chatcmpl-mock-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'small',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Done.', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
  });

  it('takes the reply per call: an array one per call, or a function of the request', async () => {
    const mock = createOpenAiCompatibleMock({
      chat: ({ call, request }) =>
        `call ${call}: ${(request.body as { messages: Array<{ content: string }> }).messages[0]!.content}`,
    });
    const text = async () => {
      const response = await mock.handle(jsonRequest('/chat/completions', { model: 'm', messages }));
      return ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!
        .message.content;
    };
    expect(await text()).toBe('call 1: Book a table for four.');
    expect(await text()).toBe('call 2: Book a table for four.');
    const listed = createOpenAiCompatibleMock({ chat: ['first', { deltas: ['sec', 'ond'] }] });
    const replies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await listed.handle(jsonRequest('/chat/completions', { model: 'm', messages }));
      replies.push(
        ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message
          .content,
      );
    }
    expect(replies).toEqual(['first', 'second', 'This is a mock reply.']);
  });

  it('rejects a body without messages: 400 OpenAI error, 422 FastAPI detail for speaches', async () => {
    const openai = await createOpenAiCompatibleMock().handle(
      jsonRequest('/chat/completions', { model: 'm' }),
    );
    expect(openai.status).toBe(400);
    expect(await openai.json()).toEqual({
      error: {
        message: "'messages' must be a non-empty array",
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_request_error',
      },
    });
    const speaches = await createOpenAiCompatibleMock({ dialect: 'speaches' }).handle(
      jsonRequest('/chat/completions', { model: 'm' }),
    );
    expect(speaches.status).toBe(422);
    expect(await speaches.json()).toEqual({ detail: "'messages' must be a non-empty array" });
  });
});
