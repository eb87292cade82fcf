import { describe, expect, it } from 'vitest';
import { chatRequestBody } from '../../../src/providers/shared/openai-wire/chat-request.js';
import type { ProviderChatRequest } from '../../../src/providers/types.js';

const request: ProviderChatRequest = {
  model: 'meta-llama/Llama-3.1-8B-Instruct',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }],
    },
    { role: 'tool', content: '{"temp":21}', toolCallId: 'call_1' },
    { role: 'assistant', content: 'It is 21 degrees.' },
    { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'call_2', name: 'time', arguments: '{}' }] },
  ],
  maxTokens: 64,
  temperature: 0.2,
  tools: [
    { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: {} } },
    { name: 'time', parameters: { type: 'object' } },
  ],
};

describe('chatRequestBody', () => {
  it('maps messages, tools and options to the OpenAI shape, max_tokens for openai-compatible', () => {
    expect(chatRequestBody(request, 'openai-compatible')).toEqual({
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_1' },
        { role: 'assistant', content: 'It is 21 degrees.' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } }],
        },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
      temperature: 0.2,
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: {} },
          },
        },
        { type: 'function', function: { name: 'time', parameters: { type: 'object' } } },
      ],
    });
  });

  it('uses max_completion_tokens for kind openai', () => {
    const body = chatRequestBody(request, 'openai');
    expect(body.max_completion_tokens).toBe(64);
    expect('max_tokens' in body).toBe(false);
  });

  it('leaves unset options out of the body', () => {
    const body = chatRequestBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 'openai');
    expect(body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('chatRequestBody: a trailing assistant message (prefill, midStream continue)', () => {
  const prefill: ProviderChatRequest = {
    model: 'm',
    messages: [
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: 'The answer ' },
    ],
  };
  it('asks vLLM-style servers to continue it', () => {
    const body = chatRequestBody(prefill, 'openai-compatible');
    expect([body.continue_final_message, body.add_generation_prompt]).toEqual([true, false]);
  });
  it("sends no vLLM option to OpenAI's own API", () => {
    const body = chatRequestBody(prefill, 'openai');
    expect(['continue_final_message' in body, 'add_generation_prompt' in body]).toEqual([false, false]);
  });
});
