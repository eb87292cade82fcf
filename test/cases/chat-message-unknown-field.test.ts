/**
 * A chat message, tool call or tool with a field of another shape: chat() requests were strict
 * at the top level only, so the fields of a message (OpenAI's `tool_calls` on an assistant
 * message, `tool_call_id`, a `name`), of a tool call and of a tool were dropped without a word:
 * the model answered a conversation without the tool calls the caller had put in it. Each is
 * now a RequestError naming the field (with a did-you-mean), before any provider is contacted;
 * a field set to `undefined` counts as unset. The server here speaks OpenAI's SSE on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatMessage, createRouter, RequestError, type Router, voiceTurn } from '../../src/index.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

let server: LoopbackServer;
let router: Router;

beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      'data: {"choices":[{"index":0,"delta":{"content":"Sunny."},"finish_reason":null}]}\n\n' +
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    );
  });
  router = createRouter({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${server.origin}/v1`,
        chat: { models: { fast: 'm' } },
        tts: { voices: { agent: 'v' } },
        stt: { model: 'w' },
      },
    },
    routes: { chat: { providers: ['a'] }, tts: { providers: ['a'] }, stt: { providers: ['a'] } },
  });
});
afterAll(async () => {
  await router.close();
  await server.close();
});

/** The RequestError a chat() of `messages` (and `tools`) throws; no request reached the server. */
async function requestError(messages: unknown[], tools?: unknown[]): Promise<RequestError> {
  const before = server.requests.length;
  let caught: unknown;
  try {
    for await (const _ of router.chat({
      model: 'fast',
      messages: messages as ChatMessage[],
      ...(tools ? { tools: tools as never } : {}),
    })) {
      // read to the end
    }
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RequestError);
  expect(server.requests.length).toBe(before);
  return caught as RequestError;
}

const CALL = { id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' };
const TOOL = { name: 'weather', parameters: { type: 'object', properties: {} } };

describe('an unknown field of a chat message, tool call or tool is a RequestError naming it', () => {
  it.each([
    [
      "OpenAI's tool_calls on an assistant message",
      [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', tool_calls: [CALL] },
      ],
      'messages.1.tool_calls',
      "unknown field (did you mean 'toolCalls'?); the fields are role, content, toolCalls",
    ],
    [
      "OpenAI's tool_call_id beside toolCallId",
      [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', toolCalls: [CALL] },
        { role: 'tool', content: 'sunny', toolCallId: 'call_1', tool_call_id: 'call_1' },
      ],
      'messages.2.tool_call_id',
      "unknown field (did you mean 'toolCallId'?); the fields are role, content, toolCallId",
    ],
    [
      'a name on a user message',
      [{ role: 'user', content: 'Hi', name: 'alice' }],
      'messages.0.name',
      'unknown field; the fields are role, content',
    ],
    [
      'toolCalls on a user message',
      [{ role: 'user', content: 'Hi', toolCalls: [CALL] }],
      'messages.0.toolCalls',
      'a field of assistant messages, not of user messages; the fields of a user message are role, content',
    ],
    [
      'toolCallId on an assistant message',
      [{ role: 'assistant', content: 'Hi', toolCallId: 'call_1' }],
      'messages.0.toolCallId',
      'a field of tool messages, not of assistant messages; the fields of an assistant message are role, content, toolCalls',
    ],
    [
      'a misspelt field of a tool call',
      [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', toolCalls: [{ ...CALL, type: 'function' }] },
      ],
      'messages.1.toolCalls.0.type',
      'unknown field; the fields are id, name, arguments',
    ],
  ])('%s', async (_name, messages, field, message) => {
    const error = await requestError(messages);
    expect(error.field).toBe(field);
    expect(error.message).toBe(`Invalid request field '${field}': ${message}`);
  });

  it("a tool in OpenAI's wire shape, and a tool with an extra field", async () => {
    const user = [{ role: 'user', content: 'Weather?' }];
    const wire = await requestError(user, [{ type: 'function', function: TOOL }]);
    expect(wire.field).toBe('tools.0.type');
    expect(wire.message).toBe(
      "Invalid request field 'tools.0.type': unknown field; the fields are name, description, parameters",
    );
    const strict = await requestError(user, [{ ...TOOL, strict: true }]);
    expect(strict.field).toBe('tools.0.strict');
  });

  it('voiceTurn(): a history message with an unknown field is refused before the STT stage', async () => {
    const before = server.requests.length;
    let caught: unknown;
    try {
      for await (const _ of voiceTurn(router, {
        audio: (async function* () {
          yield new Uint8Array(640);
        })(),
        format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
        messages: [{ role: 'system', content: 'Be brief.', cache_control: { type: 'ephemeral' } } as never],
        model: 'fast',
        voice: 'agent',
      })) {
        // read to the end
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestError);
    expect((caught as RequestError).field).toBe('messages.0.cache_control');
    expect(server.requests.length).toBe(before);
  });

  it('a field set to undefined counts as unset: the call goes through with the known fields', async () => {
    const events: unknown[] = [];
    for await (const event of router.chat({
      model: 'fast',
      messages: [
        { role: 'user', content: 'Weather?', name: undefined } as never,
        { role: 'assistant', content: '', toolCalls: [CALL], tool_calls: undefined } as never,
        { role: 'tool', content: 'sunny', toolCallId: 'call_1' },
      ],
      tools: [{ ...TOOL, strict: undefined } as never],
    }))
      events.push(event);
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Sunny.' });
    const body = JSON.parse(server.requests.at(-1)!.body.toString()) as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
    ]);
  });
});
