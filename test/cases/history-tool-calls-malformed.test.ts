/**
 * Tool calls in a chat() request's history are checked before any provider is contacted, like
 * every other request field: a call's `arguments` must be the JSON text of one object (as a
 * model's tool call is; empty is a call without arguments), the ids of one message's calls
 * distinct, and a `tool` message must answer a call of an earlier assistant message. Anything
 * else is a RequestError naming the field. Before, such a history went to the provider: the
 * OpenAI-compatible adapter sent it as it was (OpenAI answers 400), and the Anthropic adapter
 * threw an untyped VoxrouteError while building its body. The route here is Anthropic Messages
 * then OpenAI-compatible chat, each a loopback server speaking its own wire (node:http, SSE):
 * neither may see a request.
 */
import { describe, expect, it } from 'vitest';
import { type ChatMessage, type ChatRequest, RequestError } from '../../src/index.js';
import { anthropicFrames, drain, httpServer, messageStart, readBody, router } from './wire/servers.js';

const USER = { role: 'user' as const, content: 'Book a table for four at eight.' };
const CALL = { id: 'call_1', name: 'book', arguments: '{"people":4,"time":"20:00"}' };
const assistant = (...toolCalls: unknown[]) => ({ role: 'assistant', content: '', toolCalls });
const result = (toolCallId: string) => ({ role: 'tool', content: 'booked', toolCallId });

const cases: Array<[string, unknown[], string, string]> = [
  [
    'arguments that are not JSON',
    [USER, assistant({ ...CALL, arguments: 'people=4' })],
    'messages.1.toolCalls.0.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got text that is not JSON (8 characters: cut short or malformed)`,
  ],
  [
    'arguments cut short',
    [USER, assistant(CALL, { ...CALL, id: 'call_2', arguments: '{"people":' })],
    'messages.1.toolCalls.1.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got text that is not JSON (10 characters: cut short or malformed)`,
  ],
  [
    'arguments a JSON array',
    [USER, assistant({ ...CALL, arguments: '[4]' })],
    'messages.1.toolCalls.0.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got a JSON array`,
  ],
  [
    'arguments a JSON string',
    [USER, assistant({ ...CALL, arguments: '"four"' })],
    'messages.1.toolCalls.0.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got a JSON string`,
  ],
  [
    'arguments JSON null',
    [USER, assistant({ ...CALL, arguments: 'null' })],
    'messages.1.toolCalls.0.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got JSON null`,
  ],
  [
    'arguments two JSON objects',
    [USER, assistant({ ...CALL, arguments: '{}{}' })],
    'messages.1.toolCalls.0.arguments',
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got text that is not JSON (4 characters: cut short or malformed)`,
  ],
  [
    'arguments an object, not JSON text',
    [USER, assistant({ ...CALL, arguments: { people: 4 } })],
    'messages.1.toolCalls.0.arguments',
    'expected the arguments as JSON text (a string), got an object',
  ],
  [
    'a call without an id',
    [USER, assistant({ name: 'book', arguments: '{}' })],
    'messages.1.toolCalls.0.id',
    'expected a tool call id (a non-empty string), got undefined',
  ],
  [
    'a call without a name',
    [USER, assistant({ id: 'call_1', arguments: '{}' })],
    'messages.1.toolCalls.0.name',
    'expected a tool name (a non-empty string), got undefined',
  ],
  [
    'two calls of one message with the same id',
    [USER, assistant(CALL, { ...CALL, name: 'notify' })],
    'messages.1.toolCalls.1.id',
    "'call_1' is also the id of toolCalls.0 of this message (each call needs its own id)",
  ],
  [
    'a tool result with no tool call in the history',
    [USER, result('call_1')],
    'messages.1.toolCallId',
    "'call_1' is the id of no tool call of an earlier assistant message (none has tool calls)",
  ],
  [
    'a tool result answering an id no call has',
    [USER, assistant(CALL, { ...CALL, id: 'call_2' }), result('call_1'), result('call_3')],
    'messages.3.toolCallId',
    "'call_3' is the id of no tool call of an earlier assistant message (their ids: 'call_1', 'call_2')",
  ],
  [
    'a tool result before the call it answers',
    [USER, result('call_1'), assistant(CALL)],
    'messages.1.toolCallId',
    "'call_1' is the id of no tool call of an earlier assistant message (none has tool calls)",
  ],
];

/** An Anthropic Messages server and an OpenAI-compatible chat server, each recording request bodies. */
async function servers() {
  const bodies: { anthropic: unknown[]; openai: unknown[] } = { anthropic: [], openai: [] };
  const anthropic = await httpServer(async (req, res) => {
    bodies.anthropic.push(JSON.parse((await readBody(req)).toString()));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      anthropicFrames([
        messageStart('msg_1', 12),
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Booked.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
        { type: 'message_stop' },
      ]),
    );
  });
  const openai = await httpServer(async (req, res) => {
    bodies.openai.push(JSON.parse((await readBody(req)).toString()));
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"down"}}');
  });
  const r = router({
    providers: {
      a: {
        kind: 'anthropic',
        baseUrl: anthropic.url,
        apiKey: 'sk-ant-history-case',
        chat: { models: { fast: 'claude-x' } },
      },
      b: { kind: 'openai-compatible', baseUrl: `${openai.url}/v1`, chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
  });
  return { r, bodies };
}

describe('history-tool-calls: malformed tool calls in the history are a RequestError before any provider', () => {
  for (const [name, messages, field, message] of cases) {
    it(`history-tool-calls: ${name}: RequestError at ${field}`, async () => {
      const { r, bodies } = await servers();
      const { items, error } = await drain(r.chat({ model: 'fast', messages } as ChatRequest));
      expect(items).toEqual([]);
      expect(RequestError.isInstance(error)).toBe(true);
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
        field,
        `Invalid request field '${field}': ${message}`,
      ]);
      expect(bodies).toEqual({ anthropic: [], openai: [] });
    });
  }

  it('history-tool-calls: well-formed calls and results reach the provider as written', async () => {
    const { r, bodies } = await servers();
    const messages: ChatMessage[] = [
      USER,
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [CALL, { id: 'call_2', name: 'ping', arguments: '' }],
      },
      { role: 'tool', content: 'booked', toolCallId: 'call_1' },
      { role: 'tool', content: 'pong', toolCallId: 'call_2' },
      { role: 'user', content: 'And tell Sam.' },
      // A later message may reuse an id of an earlier one (servers that number calls per reply).
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'notify', arguments: ' ' }] },
      { role: 'tool', content: 'sent', toolCallId: 'call_1' },
    ];
    const { items, error } = await drain(r.chat({ model: 'fast', messages }));
    expect(error).toBeUndefined();
    expect(items.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    expect(bodies.openai).toEqual([]);
    expect((bodies.anthropic[0] as { messages: unknown }).messages).toEqual([
      { role: 'user', content: USER.content },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'call_1', name: 'book', input: { people: 4, time: '20:00' } },
          { type: 'tool_use', id: 'call_2', name: 'ping', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'booked' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'pong' },
          { type: 'text', text: 'And tell Sam.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'notify', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'sent' }] },
    ]);
  });
});
