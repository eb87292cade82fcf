/**
 * A chat reply that had started a tool call when its provider failed is never continued on
 * another provider, even on a route with `midStream: 'continue'` (a continuation as text would
 * repeat or corrupt the call): the stream ends with MidStreamError, whose `toolCalls` hold the
 * calls received so far, and the next provider gets no request. A reply cut in its text alone
 * still continues on the next provider. The servers speak OpenAI's and Anthropic's chat SSE on
 * their own (node:http on loopback, written here); each waits until the caller has the reply's
 * first text before it sends the rest and cuts the connection.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  createRouter,
  MidStreamError,
  type ProviderConfig,
  type Router,
  type RouterConfig,
} from '../../src/index.js';
import {
  anthropicSse,
  chatWireForFile,
  openAiSse as sse,
  writeFlushed as write,
} from '../helpers/chat-wire.js';
import { firstTextGate as gate, readOpening as read } from '../helpers/first-text-gate.js';

/**
 * `server` serves a handler on 127.0.0.1 until the end of the test (see chatWireServer); `chunk`
 * is an OpenAI chat.completion.chunk of this file's reply; `answering(text)` a server answering
 * every request with the whole OpenAI reply `text`, as OpenAI's API does whatever the last
 * message is (it has no continue option).
 */
const { closers, server, chunk, answering } = chatWireForFile('chatcmpl-tool');

/** Sends `first`, waits for `gate`, sends `rest`, then cuts the connection (no end marker). */
async function cutAfter(
  res: ServerResponse,
  first: string,
  gate: Promise<void>,
  rest: string,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  await write(res, first);
  await gate;
  if (rest) await write(res, rest);
  res.socket?.destroy();
}

const openai = (baseUrl: string): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl,
  chat: { models: { fast: 'm' }, continueFinalMessage: true },
});
const anthropic = (baseUrl: string): ProviderConfig => ({
  kind: 'anthropic',
  baseUrl,
  apiKey: ['test', 'key'].join('-'),
  chat: { models: { fast: 'claude-x' } },
});

function router(config: RouterConfig): Router {
  const r = createRouter(config);
  closers.push(() => r.close());
  return r;
}

/** A route over `a` then `b` (priority), continuing a reply cut mid-stream unless `midStream` says otherwise. */
const config = (
  a: ProviderConfig,
  b: ProviderConfig,
  midStream: 'continue' | 'error' = 'continue',
): RouterConfig => ({
  providers: { a, b },
  routes: { chat: { providers: ['a', 'b'], strategy: 'priority', midStream, firstChunkTimeoutMs: false } },
});

const WEATHER: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris and London?' }];
const TOOLS = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
];
const LEAD = 'Let me check the weather. ';

/** An OpenAI chunk starting tool call `index` (`id`, get_weather) with the first `args`. */
const toolCallStart = (index: number, id: string, args: string) =>
  chunk({
    tool_calls: [{ index, id, type: 'function', function: { name: 'get_weather', arguments: args } }],
  });

/** Asks a router over `config` for the weather, with TOOLS. */
const askWeather = (config: RouterConfig) =>
  router(config).chat({ model: 'fast', messages: WEATHER, tools: TOOLS });

describe('chat midStream continue: a reply cut inside a tool call is not continued', () => {
  it('OpenAI tool_calls deltas, then a cut: MidStreamError with the calls received; the next provider gets no request', async () => {
    const g = gate();
    const a = await server((res) =>
      cutAfter(
        res,
        sse([chunk({ role: 'assistant', content: '' }), chunk({ content: LEAD })]),
        g.opened,
        sse([
          toolCallStart(0, 'call_paris', ''),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
          toolCallStart(1, 'call_london', '{"ci'),
        ]),
      ),
    );
    const b = await answering('It is sunny.');
    const stream = askWeather(config(openai(a.url), openai(b.url)));
    const { items, error } = await read(stream, g);

    expect(items).toEqual([{ type: 'text-delta', text: LEAD }]);
    expect(error).toBeInstanceOf(MidStreamError);
    const e = error as MidStreamError;
    expect(e.name).toBe('MidStreamError');
    expect(e.code).toBe('MID_STREAM');
    expect(e.provider).toBe('a');
    expect(e.partialOutput).toBe(true);
    expect(e.partialText).toBe(LEAD);
    expect(e.toolCalls).toEqual([
      { id: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_london', name: 'get_weather', arguments: '{"ci' },
    ]);
    expect(b.bodies.length).toBe(0);
    expect(a.bodies.length).toBe(1);
    await expect(stream.result).rejects.toBe(error);
  });

  it('Anthropic tool_use block, then a cut: MidStreamError with the call received; the next provider gets no request', async () => {
    const g = gate();
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    };
    const a = await server((res) =>
      cutAfter(
        res,
        anthropicSse([
          start,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: LEAD } },
        ]),
        g.opened,
        anthropicSse([
          { type: 'content_block_stop', index: 0 },
          {
            type: 'content_block_start',
            index: 1,
            content_block: { type: 'tool_use', id: 'toolu_paris', name: 'get_weather', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' },
          },
        ]),
      ),
    );
    const b = await answering('It is sunny.');
    const stream = askWeather(config(anthropic(a.url), openai(b.url)));
    const { items, error } = await read(stream, g);

    expect(items).toEqual([{ type: 'text-delta', text: LEAD }]);
    expect(error).toBeInstanceOf(MidStreamError);
    expect((error as MidStreamError).partialText).toBe(LEAD);
    expect((error as MidStreamError).toolCalls).toEqual([
      { id: 'toolu_paris', name: 'get_weather', arguments: '{"city": "Pa' },
    ]);
    expect(b.bodies.length).toBe(0);
  });

  it("midStream 'error': the same MidStreamError carries the tool calls", async () => {
    const g = gate();
    const a = await server((res) =>
      cutAfter(res, sse([chunk({ content: LEAD })]), g.opened, sse([toolCallStart(0, 'call_paris', '{')])),
    );
    const b = await answering('It is sunny.');
    const { error } = await read(askWeather(config(openai(a.url), openai(b.url), 'error')), g);
    expect(error).toBeInstanceOf(MidStreamError);
    expect((error as MidStreamError).toolCalls).toEqual([
      { id: 'call_paris', name: 'get_weather', arguments: '{' },
    ]);
    expect(b.bodies.length).toBe(0);
  });

  it('a reply cut in its text alone continues on the next provider, which gets the text as a prefill', async () => {
    const g = gate();
    const a = await server((res) => cutAfter(res, sse([chunk({ content: LEAD })]), g.opened, ''));
    const b = await answering('It is sunny in Paris.');
    const stream = askWeather(config(openai(a.url), openai(b.url)));
    const { items, error } = await read(stream, g);

    expect(error).toBeUndefined();
    expect(items.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual([
      LEAD,
      'It is sunny in Paris.',
      'finish',
    ]);
    expect(b.bodies.length).toBe(1);
    expect(b.bodies[0]!.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and London?' },
      { role: 'assistant', content: LEAD },
    ]);
    expect((await stream.result).provider).toBe('b');
  });

  it('a tool call started before any output: the next provider serves the request afresh (nothing reached the caller)', async () => {
    const a = await server(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await write(res, sse([toolCallStart(0, 'call_paris', '{"ci')]));
      res.socket?.destroy();
    });
    const b = await answering('It is sunny.');
    const stream = askWeather(config(openai(a.url), openai(b.url)));
    const { items, error } = await read(stream, { open: () => {} });
    expect(error).toBeUndefined();
    expect(items.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['It is sunny.', 'finish']);
    expect(b.bodies.length).toBe(1);
    expect(b.bodies[0]!.messages).toEqual([{ role: 'user', content: 'Weather in Paris and London?' }]);
  });
});
