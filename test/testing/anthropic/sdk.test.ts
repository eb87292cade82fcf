import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnthropicMockOptions, MockServer } from '../../../src/testing/index.js';
import { createAnthropicMock, startMockServer } from '../../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(
  options: AnthropicMockOptions = {},
  auth: { apiKey?: string; authToken?: string } = { apiKey: 'test-key' },
) {
  server = await startMockServer({ provider: createAnthropicMock({ apiKey: 'test-key', ...options }) });
  return new Anthropic({ baseURL: server.url, maxRetries: 0, ...auth });
}

describe('the official @anthropic-ai/sdk client against the loopback mock', () => {
  it('messages.stream() completes: text deltas, final message with stop reason and usage', async () => {
    const anthropic = await client({
      reply: { text: 'Your table is booked.', usage: { input_tokens: 14, output_tokens: 4 } },
    });
    const stream = anthropic.messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 128,
      system: 'You book tables.',
      messages: [{ role: 'user', content: 'Book a table for four.' }],
    });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas).toEqual(['Your ', 'table ', 'is ', 'booked.']);
    expect(message).toMatchObject({
      id: 'msg_mock_1',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: 'Your table is booked.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 14, output_tokens: 4 },
    });
    const [record] = server!.requests;
    expect(record!.path).toBe('/v1/messages');
    // @anthropic-ai/sdk v1 sends an apiKey as a Bearer token (not x-api-key); the mock takes either.
    expect(record!.headers.authorization).toBe('Bearer test-key');
    expect(record!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record!.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 128, stream: true });
    expect(await record!.ended).toBe('completed');
  });

  it('messages.create({stream: true}) yields the raw events, and a tool use round trip is accepted', async () => {
    const anthropic = await client({
      reply: [{ toolUses: [{ id: 'toolu_01', name: 'book', input: { table: 4 } }] }, 'Booked table 4.'],
    });
    const tools = [
      {
        name: 'book',
        description: 'Books a table',
        input_schema: { type: 'object' as const, properties: { table: { type: 'integer' } } },
      },
    ];
    const first = await anthropic.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 128,
      tools,
      messages: [{ role: 'user', content: 'Book table 4.' }],
      stream: true,
    });
    const types: string[] = [];
    let json = '';
    let stopReason: string | null | undefined;
    for await (const event of first) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
        json += event.delta.partial_json;
      if (event.type === 'message_delta') stopReason = event.delta.stop_reason;
    }
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect({ json, stopReason }).toEqual({ json: '{"table":4}', stopReason: 'tool_use' });

    const second = anthropic.messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 128,
      tools,
      messages: [
        { role: 'user', content: 'Book table 4.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01', name: 'book', input: { table: 4 } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'booked' }] },
      ],
    });
    expect(await second.finalText()).toBe('Booked table 4.');
  });

  it('with authToken the client sends Bearer, which a bearer-only mock accepts', async () => {
    const anthropic = await client({ authHeader: 'bearer', reply: 'Hi.' }, { authToken: 'test-key' });
    const message = await anthropic.messages
      .stream({
        model: 'm',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hi.' }]);
    expect(server!.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('surfaces an error status as its APIError with our status and error type', async () => {
    const anthropic = await client({ script: { failTimes: 1, failStatus: 529, retryAfter: '1' } });
    let caught: unknown;
    try {
      await anthropic.messages.create({
        model: 'm',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(APIError);
    const error = caught as APIError;
    expect(error.status).toBe(529);
    expect((error.error as { error: { type: string } }).error.type).toBe('overloaded_error');
    expect(error.headers?.get('retry-after')).toBe('1');
  });

  it('surfaces an error event mid-stream as an APIError after the first delta', async () => {
    const anthropic = await client({ script: { errorEventAfterChunks: 4 } });
    const stream = await anthropic.messages.create({
      model: 'm',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of stream) seen.push(event.type);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(caught).toBeInstanceOf(APIError);
    expect((caught as APIError).type).toBe('overloaded_error');
  });

  it('a wrong key is a 401 AuthenticationError', async () => {
    const anthropic = await client({}, { apiKey: 'wrong' });
    await expect(
      anthropic.messages.create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toSatisfy((e: unknown) => e instanceof Anthropic.AuthenticationError && e.status === 401);
  });
});

describe('docs/testing.md examples', () => {
  it('the Anthropic mock example: 529 on call 1, the tool use on the retry, Booked. on the next turn', async () => {
    const mock = createAnthropicMock({
      apiKey: 'test-key',
      script: [{ failStatus: 529, retryAfter: '1' }],
      reply: ({ call }) =>
        call <= 2 ? { toolUses: [{ id: 'toolu_1', name: 'book', input: { table: 4 } }] } : 'Booked.',
    });
    server = await startMockServer({ provider: mock });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'test-key' });
    const tools = [{ name: 'book', input_schema: { type: 'object' as const } }];
    const ask = { role: 'user' as const, content: 'Book a table for four.' };
    const first = await anthropic.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      tools,
      messages: [ask],
    });
    expect(first.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'book', input: { table: 4 } }]);
    const next = await anthropic.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      tools,
      messages: [
        ask,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
      ],
    });
    expect(next.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual([
      'Booked.',
    ]);
    expect(server.requests.map((r) => r.status)).toEqual([529, 200, 200]);
  });
});
