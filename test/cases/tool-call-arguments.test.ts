/**
 * A streamed tool call's arguments must end as one JSON object (OpenAI's function `arguments`
 * and Anthropic's tool `input` are objects). Fragments that join to JSON cut short
 * (`{"city":`), malformed text or a value that is not an object are malformed provider output:
 * a ProtocolError (retryable), so the route falls back when nothing was yielded, on both the
 * Anthropic Messages and the OpenAI-compatible chat wire. Empty arguments (a tool without
 * parameters) are `{}`. A call cut by the token limit (Anthropic `stop_reason: max_tokens`,
 * OpenAI `finish_reason: length`) is no call: it is dropped and the finish says `length`.
 * The servers speak each wire on their own (node:http, SSE).
 */
import { describe, expect, it } from 'vitest';
import { type ChatEvent, ProtocolError, type RouterConfig, type VoxrouteError } from '../../src/index.js';
import { fieldsOf } from '../helpers/errors.js';
import {
  anthropicFrames,
  chatChunk,
  drain,
  httpServer,
  messageStart,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

const ASK = [{ role: 'user' as const, content: 'Weather in Paris?' }];
const TOOLS = [{ name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

const MESSAGE_START = messageStart('msg_1', 9);

/**
 * An Anthropic stream: optional text "Let me check." in block 0, then a tool_use block whose
 * input comes as the `pieces` of `input_json_delta` (none: no delta at all), then the stop reason.
 */
function anthropicTool(pieces: string[], stopReason = 'tool_use', text = false): string {
  const at = text ? 1 : 0;
  return anthropicFrames([
    MESSAGE_START,
    ...(text
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me check.' } },
          { type: 'content_block_stop', index: 0 },
        ]
      : []),
    {
      type: 'content_block_start',
      index: at,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
    },
    ...pieces.map((partial_json) => ({
      type: 'content_block_delta',
      index: at,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index: at },
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 12 },
    },
    { type: 'message_stop' },
  ]);
}

/** An OpenAI chat stream: optional text, then one tool call whose arguments come as `pieces`, then `finish`. */
function openAiTool(pieces: string[], finish = 'tool_calls', text = false): string {
  return sseFrames([
    chatChunk({ role: 'assistant', content: text ? 'Let me check.' : null }),
    chatChunk({
      tool_calls: [
        { index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: pieces[0] } },
      ],
    }),
    ...pieces
      .slice(1)
      .map((args) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
    chatChunk({}, finish),
    '[DONE]',
  ]);
}

/** The fallback: an OpenAI-compatible server answering a valid call. */
const BACKUP = openAiTool(['{"city":', '"Paris"}']);
const BACKUP_EVENTS: ChatEvent[] = [
  { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
  { type: 'finish', finishReason: 'tool-calls' },
];

type Wire = 'anthropic' | 'openai-compatible';

async function serve(body: string) {
  return httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
}

function providerOf(wire: Wire, url: string): RouterConfig['providers'][string] {
  return wire === 'anthropic'
    ? { kind: 'anthropic', baseUrl: url, apiKey: 'sk-ant-tool-args', chat: { models: { fast: 'claude-x' } } }
    : { kind: 'openai-compatible', baseUrl: `${url}/v1`, chat: { models: { fast: 'm' } } };
}

/** Routes chat over `a` (speaking `wire` with `body`) then the backup; returns the call's outcome. */
async function ask(wire: Wire, body: string) {
  const a = await serve(body);
  const b = await serve(BACKUP);
  const r = router({
    providers: { a: providerOf(wire, a.url), b: providerOf('openai-compatible', b.url) },
    routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
  });
  const stream = r.chat({ model: 'fast', messages: ASK, tools: TOOLS });
  const { items, error } = await drain(stream);
  const result = error === undefined ? await stream.result : undefined;
  return { items: items as ChatEvent[], error, result, hits: [a.hits, b.hits] };
}

const withoutUsage = (events: ChatEvent[]) =>
  events.map((e) => (e.type === 'finish' ? { type: e.type, finishReason: e.finishReason } : e));

const WIRES: Array<{
  wire: Wire;
  id: string;
  tool: (pieces: string[], stop?: string, text?: boolean) => string;
  cut: string;
}> = [
  { wire: 'anthropic', id: 'toolu_1', tool: anthropicTool, cut: 'max_tokens' },
  { wire: 'openai-compatible', id: 'call_1', tool: openAiTool, cut: 'length' },
];

describe('tool-call-arguments: a tool call ends with one JSON object as its arguments', () => {
  for (const { wire, id, tool, cut } of WIRES) {
    for (const [what, pieces] of [
      ['cut short ({"city":)', ['{"city":']],
      ['unclosed ({"city": "Paris")', ['{"city":', ' "Paris"']],
      ['not JSON', ['city=Paris']],
      ['a JSON array', ['["Paris"]']],
      ['a JSON string', ['"Paris"']],
      ['JSON null', ['null']],
      ['two JSON objects', ['{"city":"Paris"}', '{"city":"Rome"}']],
    ] as const) {
      it(`tool-call-arguments: ${wire}: arguments ${what} are a ProtocolError and the route falls back`, async () => {
        const text = pieces.join('');
        const { items, error, result, hits } = await ask(wire, tool([...pieces]));
        expect(error).toBeUndefined();
        expect(withoutUsage(items)).toEqual(BACKUP_EVENTS);
        expect(hits).toEqual([1, 1]);
        expect(result?.attempts.map((x) => [x.provider, x.outcome])).toEqual([
          ['a', 'failed'],
          ['b', 'success'],
        ]);
        expect(
          fieldsOf(
            result?.attempts[0]?.error,
            ProtocolError,
            'message',
            'retryable',
            'partialOutput',
            'provider',
          ),
        ).toEqual({
          message: `Tool call 'weather' (${id}) ended with arguments that are not one JSON object (${text.length} characters: cut short or malformed)`,
          retryable: true,
          partialOutput: false,
          provider: 'a',
        });
      });
    }

    it(`tool-call-arguments: ${wire}: empty arguments (a tool without parameters) are {}`, async () => {
      for (const pieces of wire === 'anthropic' ? [[], [''], ['', ' ']] : [[''], ['', ' ']]) {
        const { items, error, hits } = await ask(wire, tool(pieces));
        expect(error).toBeUndefined();
        expect(withoutUsage(items)).toEqual([
          { type: 'tool-call', id, name: 'weather', arguments: '{}' },
          { type: 'finish', finishReason: 'tool-calls' },
        ]);
        expect(hits).toEqual([1, 0]);
      }
    });

    it(`tool-call-arguments: ${wire}: complete arguments are passed as the model wrote them`, async () => {
      const { items, hits } = await ask(wire, tool(['{ "city" :', ' "Paris" }']));
      expect(withoutUsage(items)).toEqual([
        { type: 'tool-call', id, name: 'weather', arguments: '{ "city" : "Paris" }' },
        { type: 'finish', finishReason: 'tool-calls' },
      ]);
      expect(hits).toEqual([1, 0]);
    });

    it(`tool-call-arguments: ${wire}: a call cut by the token limit (${cut}) is dropped, the finish says length`, async () => {
      const { items, error, hits } = await ask(wire, tool(['{"city":'], cut, true));
      expect(error).toBeUndefined();
      expect(withoutUsage(items)).toEqual([
        { type: 'text-delta', text: 'Let me check.' },
        { type: 'finish', finishReason: 'length' },
      ]);
      expect(hits).toEqual([1, 0]);
    });

    it(`tool-call-arguments: ${wire}: bad arguments after text already yielded: a mid-stream failure with partialOutput`, async () => {
      const { items, error, hits } = await ask(wire, tool(['{"city":'], undefined, true));
      expect(items).toEqual([{ type: 'text-delta', text: 'Let me check.' }]);
      expect((error as VoxrouteError).partialOutput).toBe(true);
      const cause = (error as VoxrouteError).cause;
      expect(fieldsOf(cause, ProtocolError, 'message', 'partialOutput')).toEqual({
        message: `Tool call 'weather' (${id}) ended with arguments that are not one JSON object (8 characters: cut short or malformed)`,
        partialOutput: true,
      });
      expect(hits).toEqual([1, 0]);
    });
  }

  it('tool-call-arguments: anthropic: a text block after a bad tool block is not yielded before the failure', async () => {
    const body = anthropicFrames([
      MESSAGE_START,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"city":' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Checking.' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } },
      { type: 'message_stop' },
    ]);
    const { items, error, result, hits } = await ask('anthropic', body);
    expect(error).toBeUndefined();
    expect(withoutUsage(items)).toEqual(BACKUP_EVENTS);
    expect(hits).toEqual([1, 1]);
    expect(ProtocolError.isInstance(result?.attempts[0]?.error)).toBe(true);
  });
});
