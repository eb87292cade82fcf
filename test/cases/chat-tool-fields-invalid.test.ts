/**
 * Malformed tool fields of a chat() request (a `tool` message without `toolCallId`, a tool call
 * that is not `{ id, name, arguments }`, a tool without a string name or a schema object) are a
 * RequestError naming the field, before any provider is contacted: the loopback server (OpenAI's
 * chat SSE on node:http) must see no request.
 */
import { describe, expect, it } from 'vitest';
import { type ChatRequest, RequestError } from '../../src/index.js';
import { answerChat, drain, httpServer, router } from './wire/servers.js';

const USER = { role: 'user' as const, content: 'What is 6 times 7?' };
const CALL = { id: 'call_1', name: 'multiply', arguments: '{"a":6,"b":7}' };
const TOOL = { name: 'multiply', parameters: { type: 'object' } };

const cases: Array<[string, unknown, string, string]> = [
  [
    'a tool message without toolCallId',
    {
      messages: [
        USER,
        { role: 'assistant', content: '', toolCalls: [CALL] },
        { role: 'tool', content: '42' },
      ],
    },
    'messages.2.toolCallId',
    'expected the id of the tool call answered (a non-empty string), got undefined',
  ],
  [
    'a tool message with an empty toolCallId',
    { messages: [USER, { role: 'tool', content: '42', toolCallId: '' }] },
    'messages.1.toolCallId',
    'expected the id of the tool call answered (a non-empty string), got ""',
  ],
  [
    'toolCalls: [7]',
    { messages: [USER, { role: 'assistant', content: '', toolCalls: [7] }] },
    'messages.1.toolCalls.0',
    'expected { id, name, arguments }, got 7',
  ],
  [
    'toolCalls not an array',
    { messages: [USER, { role: 'assistant', content: '', toolCalls: CALL }] },
    'messages.1.toolCalls',
    'expected an array of tool calls, got an object',
  ],
  [
    'a tool call without a name',
    { messages: [USER, { role: 'assistant', content: '', toolCalls: [{ id: 'c', arguments: '{}' }] }] },
    'messages.1.toolCalls.0.name',
    'expected a tool name (a non-empty string), got undefined',
  ],
  [
    'a tool call whose arguments are an object',
    { messages: [USER, { role: 'assistant', content: '', toolCalls: [{ ...CALL, arguments: { a: 6 } }] }] },
    'messages.1.toolCalls.0.arguments',
    'expected the arguments as JSON text (a string), got an object',
  ],
  [
    'tools: [{ name: 5 }]',
    { messages: [USER], tools: [{ name: 5, parameters: {} }] },
    'tools.0.name',
    'expected a tool name (a non-empty string), got 5',
  ],
  [
    'tools: [7]',
    { messages: [USER], tools: [TOOL, 7] },
    'tools.1',
    'expected { name, description?, parameters }, got 7',
  ],
  [
    'a tool without parameters',
    { messages: [USER], tools: [{ name: 'multiply' }] },
    'tools.0.parameters',
    'expected a JSON Schema object, got undefined',
  ],
  [
    'a tool whose description is a number',
    { messages: [USER], tools: [{ ...TOOL, description: 3 }] },
    'tools.0.description',
    'expected a string, got 3',
  ],
];

describe('chat() tool fields are checked before any provider is contacted', () => {
  for (const [name, fields, field, message] of cases) {
    it(`${name}: RequestError at ${field}`, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        answerChat(res, 'no');
      });
      const r = router({
        providers: { a: { kind: 'openai-compatible', baseUrl: server.url, chat: { models: { fast: 'm' } } } },
        routes: { chat: { providers: ['a'] } },
      });
      const { error } = await drain(r.chat({ model: 'fast', ...(fields as object) } as ChatRequest));
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).field).toBe(field);
      expect((error as RequestError).message).toBe(`Invalid request field '${field}': ${message}`);
      expect(server.hits).toBe(0);
    });
  }

  it('well-formed tool fields reach the provider', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      answerChat(res, '42');
    });
    const r = router({
      providers: { a: { kind: 'openai-compatible', baseUrl: server.url, chat: { models: { fast: 'm' } } } },
      routes: { chat: { providers: ['a'] } },
    });
    const { items, error } = await drain(
      r.chat({
        model: 'fast',
        messages: [
          USER,
          { role: 'assistant', content: '', toolCalls: [CALL] },
          { role: 'tool', content: '42', toolCallId: 'call_1' },
        ],
        tools: [{ ...TOOL, description: 'a times b' }],
      }),
    );
    expect(error).toBeUndefined();
    expect(items.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    expect(server.hits).toBe(1);
  });
});
