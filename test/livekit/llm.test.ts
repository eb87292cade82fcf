import { APIError, llm } from '@livekit/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as voxroute from '../../src/livekit/index.js';
import { ALWAYS_503, RETRY_3, twoProviders } from './helpers.js';

/** A chat context of a system prompt and one user turn. */
function context(): llm.ChatContext {
  const ctx = llm.ChatContext.empty();
  ctx.addMessage({ role: 'system', content: 'You book tables.' });
  ctx.addMessage({ role: 'user', content: 'A table for four, please.' });
  return ctx;
}

const book = llm.tool({
  description: 'Books a table',
  parameters: z.object({ table: z.number() }),
  execute: async () => 'booked',
});

describe('voxroute/livekit LLM with the real @livekit/agents', () => {
  it('streams the reply of the provider that served after a 503, with usage; the chat context and tools reach it', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { chat: 'Your table is booked.' });
    const model = new voxroute.LLM(router, { model: 'fast', temperature: 0.2 });
    expect([model.label(), model.model, model.provider]).toEqual(['voxroute.LLM', 'fast', 'voxroute']);
    const stream = model.chat({ chatCtx: context(), toolCtx: { book } });
    const chunks: llm.ChatChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.flatMap((c) => (c.delta?.content ? [c.delta.content] : []))).toEqual([
      'Your ',
      'table ',
      'is ',
      'booked.',
    ]);
    expect(chunks.at(-1)!.usage).toEqual({
      promptTokens: Math.ceil(('You book tables.'.length + 'A table for four, please.'.length) / 4),
      completionTokens: 4,
      promptCachedTokens: 0,
      totalTokens: Math.ceil(41 / 4) + 4,
    });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect([a.calls('chat'), b.calls('chat')]).toEqual([1, 1]);
    const sent = b.requests[0]!.body as {
      model: string;
      temperature: number;
      messages: unknown[];
      tools: unknown[];
    };
    expect(sent.model).toBe('llama-8b');
    expect(sent.temperature).toBe(0.2);
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You book tables.' },
      { role: 'user', content: 'A table for four, please.' },
    ]);
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'book',
          description: 'Books a table',
          parameters: expect.objectContaining({ type: 'object', properties: { table: { type: 'number' } } }),
        },
      },
    ]);
  });

  it('tool calls arrive as FunctionCall items; earlier calls and outputs in the context are sent back', async () => {
    const { router, a } = await twoProviders({
      chat: ({ call }) =>
        call === 1
          ? { toolCalls: [{ id: 'call_9', name: 'book', arguments: '{"table":4}' }] }
          : 'Booked for four.',
    });
    const model = new voxroute.LLM(router, { model: 'fast' });
    const ctx = context();
    const collected = await model.chat({ chatCtx: ctx, toolCtx: { book } }).collect();
    expect(collected.toolCalls.map((c) => [c.callId, c.name, c.args])).toEqual([
      ['call_9', 'book', '{"table":4}'],
    ]);

    ctx.insert(llm.FunctionCall.create({ callId: 'call_9', name: 'book', args: '{"table":4}' }));
    ctx.insert(llm.FunctionCallOutput.create({ callId: 'call_9', output: 'booked', isError: false }));
    const second = await model.chat({ chatCtx: ctx, toolCtx: { book }, toolChoice: 'none' }).collect();
    expect(second.text).toBe('Booked for four.');
    const sent = a.requests[1]!.body as { messages: unknown[]; tools?: unknown };
    expect(sent.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'book', arguments: '{"table":4}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_9', content: 'booked' },
    ]);
    expect(sent.tools).toBeUndefined();
  });

  it('a route where every provider fails: one non-retryable APIError, no LiveKit retry on top', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { script: ALWAYS_503 });
    const model = new voxroute.LLM(router, { model: 'fast' });
    const errors: Array<{ error: unknown; recoverable: boolean }> = [];
    model.on('error', (e) => errors.push(e));
    const chunks: llm.ChatChunk[] = [];
    for await (const chunk of model.chat({ chatCtx: context(), connOptions: RETRY_3 })) chunks.push(chunk);
    expect(chunks).toEqual([]);
    expect(errors.map((e) => [e.recoverable, e.error instanceof APIError && e.error.retryable])).toEqual([
      [false, false],
    ]);
    expect([a.calls('chat'), b.calls('chat')]).toEqual([1, 1]);
  });

  it('refuses a missing model with TypeError', async () => {
    const { router } = await twoProviders();
    expect(() => new voxroute.LLM(router, { model: '' })).toThrow(TypeError);
  });
});
