/**
 * Tool-call deltas as some OpenAI-compatible servers stream them: a complete call in one chunk
 * without `index` or with `index: null` (a new id starts a new call, a repeated id continues its
 * call, a fragment with no id continues the last call), and `arguments` as a JSON object (read as its
 * JSON text). Everything else is still checked: a non-integer `index` or numeric `arguments`
 * is a ProtocolError, and the next provider serves. The server speaks OpenAI's chat SSE on its
 * own (node:http), and msw serves the same stream to the fetch transport.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, ProtocolError } from '../../src/index.js';
import { createOpenAiAdapter } from '../../src/providers/openai/index.js';
import { collect } from '../helpers/index.js';
import { mswFetchTransport } from '../helpers/msw-fetch.js';
import { answerChat, chatChunk, drain, httpServer, router, sseFrames } from './wire/servers.js';

const provider = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  chat: { models: { fast: 'm' } },
});
const ASK = [{ role: 'user' as const, content: 'Weather in Paris?' }];

const call = (id: string, name: string, args: unknown, index?: unknown) => ({
  ...(index === undefined ? {} : { index }),
  id,
  type: 'function',
  function: { name, arguments: args },
});

/** A chat SSE answer whose chunks carry `toolCalls` (one array per chunk), then finish `tool_calls`. */
function toolStream(...toolCalls: unknown[][]): string {
  return sseFrames([
    chatChunk({ role: 'assistant', content: null }),
    ...toolCalls.map((calls) => chatChunk({ tool_calls: calls })),
    chatChunk({}, 'tool_calls'),
    '[DONE]',
  ]);
}

function chatServer(body: string) {
  return httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
}

const toolCalls = (events: ChatEvent[]) => events.filter((e) => e.type === 'tool-call');

const ACCEPTED: Array<[string, string, ChatEvent[]]> = [
  [
    'a complete call without index',
    toolStream([call('a', 'weather', '{"city":"Paris"}')]),
    [{ type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' }],
  ],
  [
    'arguments as a JSON object',
    toolStream([call('a', 'weather', { city: 'Paris', days: [1, 2] }, 0)]),
    [{ type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris","days":[1,2]}' }],
  ],
  [
    'two complete calls in one chunk without index: positions 0 and 1',
    toolStream([call('a', 'weather', '{"city":"Paris"}'), call('b', 'time', { tz: 'CET' })]),
    [
      { type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'b', name: 'time', arguments: '{"tz":"CET"}' },
    ],
  ],
  [
    'two complete calls in two chunks without index: not merged',
    toolStream([call('a', 'weather', '{"city":"Paris"}')], [call('b', 'time', '{}')]),
    [
      { type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'b', name: 'time', arguments: '{}' },
    ],
  ],
  [
    'two complete calls in two chunks with index null: not merged',
    toolStream([call('a', 'weather', '{"city":"Paris"}', null)], [call('b', 'time', '{}', null)]),
    [
      { type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'b', name: 'time', arguments: '{}' },
    ],
  ],
  [
    'a fragment repeating the id of the second call without index continues that call',
    toolStream(
      [call('a', 'weather', '{"city":"Paris"}')],
      [call('b', 'time', '{"tz":')],
      [{ id: 'b', function: { arguments: '"CET"}' } }],
    ),
    [
      { type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'b', name: 'time', arguments: '{"tz":"CET"}' },
    ],
  ],
  [
    'a fragment with neither index nor id continues the last call',
    toolStream(
      [call('a', 'weather', '{"city":"Paris"}')],
      [call('b', 'time', '{"tz":')],
      [{ function: { arguments: '"CET"}' } }],
    ),
    [
      { type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'b', name: 'time', arguments: '{"tz":"CET"}' },
    ],
  ],
  [
    'the standard form still assembles fragments by index',
    toolStream([call('a', 'weather', '{"ci', 0)], [{ index: 0, function: { arguments: 'ty":"Paris"}' } }]),
    [{ type: 'tool-call', id: 'a', name: 'weather', arguments: '{"city":"Paris"}' }],
  ],
];

describe('tool-call deltas without index, or with object arguments, are accepted', () => {
  for (const [name, body, expected] of ACCEPTED) {
    it(`${name} (loopback server)`, async () => {
      const a = await chatServer(body);
      const stream = router({
        providers: { a: provider(a.url) },
        routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).chat({ model: 'fast', messages: ASK });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(toolCalls(items as ChatEvent[])).toEqual(expected);
      expect((items as ChatEvent[]).at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
    });
  }

  for (const [name, fragment, message] of [
    ['index 1.5', call('a', 'weather', '{}', 1.5), 'choices.0.delta.tool_calls.0.index'],
    ['index "0"', call('a', 'weather', '{}', '0'), 'choices.0.delta.tool_calls.0.index'],
    ['arguments as a number', call('a', 'weather', 42, 0), 'choices.0.delta.tool_calls.0.function.arguments'],
    [
      'arguments as an array',
      call('a', 'weather', [1], 0),
      'choices.0.delta.tool_calls.0.function.arguments',
    ],
  ] as const) {
    it(`still checked: ${name} is a ProtocolError naming the field, and the next provider serves`, async () => {
      const a = await chatServer(toolStream([fragment]));
      const b = await httpServer((req, res) => {
        req.resume();
        req.on('end', () => answerChat(res, 'Sunny.'));
      });
      const stream = router({
        providers: { a: provider(a.url), b: provider(b.url) },
        routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).chat({ model: 'fast', messages: ASK });
      const { error } = await drain(stream);
      expect(error).toBeUndefined();
      const result = await stream.result;
      expect(result.provider).toBe('b');
      const first = result.attempts[0]!.error as ProtocolError;
      expect(first).toBeInstanceOf(ProtocolError);
      expect(first.message).toContain(`Unexpected chat chunk at ${message}:`);
    });
  }
});

describe('the same streams through msw (fetch transport)', () => {
  const BASE = 'https://llm.tools.example/v1';
  const { msw, attempt } = mswFetchTransport();
  for (const [name, body, expected] of ACCEPTED) {
    it(name, async () => {
      msw.use(
        http.post(
          `${BASE}/chat/completions`,
          () => new HttpResponse(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
        ),
      );
      const chat = createOpenAiAdapter({ kind: 'openai-compatible', name: 'a', baseUrl: BASE, chat: {} })
        .chat!;
      const items = await collect(chat.chat({ model: 'm', messages: ASK }, attempt()));
      expect(toolCalls(items as ChatEvent[])).toEqual(expected);
    });
  }
});
