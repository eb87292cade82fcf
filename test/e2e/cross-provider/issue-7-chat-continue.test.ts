import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src/index.js';
import { createAnthropicMock, createOpenAiCompatibleMock } from '../../../src/testing/index.js';
import { drain, outcomes, router, serve } from './helpers.js';

const KEY = 'sk-ant-continue-1234';
const QUESTION = { role: 'user' as const, content: 'Is the table booked?' };
const textOf = (items: ChatEvent[]) => items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

async function pair(
  order: ['ec2', 'claude'] | ['claude', 'ec2'],
  claude: ReturnType<typeof createAnthropicMock>,
  ec2: ReturnType<typeof createOpenAiCompatibleMock>,
) {
  const [cUrl, oUrl] = await Promise.all([serve(claude), serve(ec2)]);
  return router({
    providers: {
      claude: {
        kind: 'anthropic',
        baseUrl: cUrl,
        apiKey: KEY,
        chat: { models: { fast: 'claude-haiku-4-5' } },
      },
      ec2: {
        kind: 'openai-compatible',
        baseUrl: `${oUrl}/v1`,
        chat: { models: { fast: 'llama' }, continueFinalMessage: true },
      },
    },
    routes: { chat: { providers: order, strategy: 'priority', midStream: 'continue' } },
  });
}

describe("issue 7: chat midStream 'continue' across provider kinds", () => {
  it('issue 7: OpenAI-compatible (vLLM) resets after "Yes, your" -> Anthropic continues from the assistant prefill', async () => {
    // Chunks: the role chunk, then 'Yes, ', 'your'; the reset comes after 3 chunks.
    const ec2 = createOpenAiCompatibleMock({
      dialect: 'vllm',
      chat: { deltas: ['Yes, ', 'your', ' table', ' is booked.'] },
      script: { chat: { resetAfterChunks: 3 } },
    });
    const claude = createAnthropicMock({ apiKey: KEY, reply: { deltas: [' table', ' is booked.'] } });
    const r = await pair(['ec2', 'claude'], claude, ec2);
    const stream = r.chat({ model: 'fast', messages: [QUESTION] });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Yes, ',
      'your',
      ' table',
      ' is booked.',
    ]);
    expect(textOf(items)).toBe('Yes, your table is booked.');
    expect(items.filter((e) => e.type === 'finish')).toHaveLength(1);
    expect(items.at(-1)!.type).toBe('finish');
    const body = claude.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const prefill = body.messages.at(-1)!.content;
    const prefillText =
      typeof prefill === 'string'
        ? prefill
        : (prefill as Array<{ text: string }>).map((b) => b.text).join('');
    expect(prefillText).toBe('Yes, your');
    const result = await stream.result;
    expect(result.provider).toBe('claude');
    expect(outcomes(result)).toEqual([
      ['ec2', 'failed'],
      ['claude', 'success'],
    ]);
  });

  it('issue 7: Anthropic overloaded error event after "Claude booked " -> the OpenAI-compatible provider continues from the prefill', async () => {
    const claude = createAnthropicMock({
      apiKey: KEY,
      reply: 'Claude booked it.',
      script: { errorEventAfterChunks: 5, errorEvent: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const ec2 = createOpenAiCompatibleMock({ dialect: 'vllm', chat: { deltas: ['it.'] } });
    const r = await pair(['claude', 'ec2'], claude, ec2);
    const stream = r.chat({ model: 'fast', messages: [QUESTION] });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(textOf(items)).toBe('Claude booked it.');
    expect(items.filter((e) => e.type === 'finish')).toHaveLength(1);
    const body = ec2.requests[0]!.body as { messages: unknown[] };
    expect(body.messages).toEqual([QUESTION, { role: 'assistant', content: 'Claude booked ' }]);
    expect(outcomes(await stream.result)).toEqual([
      ['claude', 'failed'],
      ['ec2', 'success'],
    ]);
  });
});
