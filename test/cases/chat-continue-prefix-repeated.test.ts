/**
 * `midStream: 'continue'` hands a chat reply cut mid-stream to the next provider as a trailing
 * assistant message. Only a provider that continues such a message (Anthropic's prefill, a
 * vLLM-style server declared with `continueFinalMessage: true`) may take it over: OpenAI's own
 * API, and an OpenAI-compatible server not declared so, would answer it with a new reply, and
 * the caller would get the start of the reply twice. Those are passed over (no request); when
 * no provider is left the stream ends with MidStreamError holding the partial text. Before any
 * output they serve the call as usual. The servers speak OpenAI's and Anthropic's chat SSE on
 * their own (node:http on loopback, written here); the cut waits until the caller has the
 * reply's first text.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChatEvent,
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
const { closers, server, chunk, answering } = chatWireForFile('chatcmpl-prefix');

const LEAD = 'Your table for two ';

/** A server that sends LEAD, waits for `opened`, then cuts the connection (no end marker). */
const cutting = (opened: Promise<void>) =>
  server(async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    await write(res, sse([chunk({ role: 'assistant', content: '' }), chunk({ content: LEAD })]));
    await opened;
    res.socket?.destroy();
  });

/** An Anthropic server that streams `text` as the continuation of whatever it is given. */
const anthropicAnswering = (text: string) =>
  server((res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      anthropicSse([
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-x',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 9, output_tokens: 1 },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ]),
    );
  });

const KEY = ['test', 'key', 'prefix'].join('-');
const compatible = (baseUrl: string, continueFinalMessage?: boolean): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl,
  chat: { models: { fast: 'm' }, ...(continueFinalMessage === undefined ? {} : { continueFinalMessage }) },
});
const openai = (baseUrl: string): ProviderConfig => ({
  kind: 'openai',
  baseUrl,
  apiKey: KEY,
  chat: { models: { fast: 'gpt-x' } },
});
const anthropic = (baseUrl: string): ProviderConfig => ({
  kind: 'anthropic',
  baseUrl,
  apiKey: KEY,
  chat: { models: { fast: 'claude-x' } },
});

function router(providers: Record<string, ProviderConfig>): Router {
  const config: RouterConfig = {
    providers,
    routes: {
      chat: {
        providers: Object.keys(providers),
        strategy: 'priority',
        midStream: 'continue',
        firstChunkTimeoutMs: false,
      },
    },
  };
  const r = createRouter(config);
  closers.push(() => r.close());
  return r;
}

const ASK = [{ role: 'user' as const, content: 'Book a table for two at eight.' }];
const texts = (items: ChatEvent[]) => items.map((e) => (e.type === 'text-delta' ? e.text : e.type));

describe("chat midStream 'continue': a provider that would answer the partial reply anew never takes it over", () => {
  it("OpenAI's own API is passed over: MidStreamError with the partial text, and OpenAI gets no request", async () => {
    const g = gate();
    const a = await cutting(g.opened);
    const b = await answering('Your table for two is booked for eight.');
    const r = router({ a: compatible(a.url), b: openai(b.url) });
    const fallbacks: string[] = [];
    r.on('fallback', (e) => fallbacks.push(e.next));
    const stream = r.chat({ model: 'fast', messages: ASK });
    const { items, error } = await read(stream, g);

    expect(texts(items)).toEqual([LEAD]);
    expect(error).toBeInstanceOf(MidStreamError);
    const mid = error as MidStreamError;
    expect([mid.partialText, mid.provider, mid.partialOutput]).toEqual([LEAD, 'a', true]);
    expect(b.bodies.length).toBe(0);
    expect(fallbacks).toEqual([]);
    await expect(stream.result).rejects.toBe(error);
  });

  it('an OpenAI-compatible server not declared to continue is passed over too', async () => {
    const g = gate();
    const a = await cutting(g.opened);
    const b = await answering('Your table for two is booked for eight.');
    const { items, error } = await read(
      router({ a: compatible(a.url), b: compatible(b.url) }).chat({ model: 'fast', messages: ASK }),
      g,
    );

    expect(texts(items)).toEqual([LEAD]);
    expect(error).toBeInstanceOf(MidStreamError);
    expect((error as MidStreamError).partialText).toBe(LEAD);
    expect(b.bodies.length).toBe(0);
  });

  it('the first provider that continues takes over, past one that would not: the caller reads the reply once', async () => {
    const g = gate();
    const a = await cutting(g.opened);
    const b = await answering('Your table for two is booked for eight.');
    const c = await anthropicAnswering('is booked for eight.');
    const r = router({ a: compatible(a.url), b: openai(b.url), c: anthropic(c.url) });
    const fallbacks: Array<[string, boolean]> = [];
    r.on('fallback', (e) => fallbacks.push([e.next, e.partialOutput]));
    const stream = r.chat({ model: 'fast', messages: ASK });
    const { items, error } = await read(stream, g);

    expect(error).toBeUndefined();
    expect(texts(items)).toEqual([LEAD, 'is booked for eight.', 'finish']);
    expect(b.bodies.length).toBe(0);
    expect(c.bodies.length).toBe(1);
    // Anthropic refuses a prefill ending in white space: it gets it trimmed.
    expect(c.bodies[0]!.messages).toEqual([
      { role: 'user', content: 'Book a table for two at eight.' },
      { role: 'assistant', content: LEAD.trimEnd() },
    ]);
    expect(fallbacks).toEqual([['c', true]]);
    const result = await stream.result;
    expect([result.provider, result.attempts.map((x) => x.provider)]).toEqual(['c', ['a', 'c']]);
  });

  it('an OpenAI-compatible server declared with continueFinalMessage takes over, told to continue as vLLM is', async () => {
    const g = gate();
    const a = await cutting(g.opened);
    const b = await answering('is booked for eight.');
    const { items, error } = await read(
      router({ a: compatible(a.url), b: compatible(b.url, true) }).chat({ model: 'fast', messages: ASK }),
      g,
    );

    expect(error).toBeUndefined();
    expect(texts(items)).toEqual([LEAD, 'is booked for eight.', 'finish']);
    expect(b.bodies.length).toBe(1);
    const body = b.bodies[0]!;
    expect(body.messages).toEqual([
      { role: 'user', content: 'Book a table for two at eight.' },
      { role: 'assistant', content: LEAD },
    ]);
    expect([body.continue_final_message, body.add_generation_prompt]).toEqual([true, false]);
  });

  it('before any output, OpenAI still serves the call as an ordinary fallback (nothing to continue)', async () => {
    const a = await server((res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'busy', type: 'server_error', param: null, code: null } }));
    });
    const b = await answering('Your table for two is booked for eight.');
    const stream = router({ a: compatible(a.url), b: openai(b.url) }).chat({ model: 'fast', messages: ASK });
    const { items, error } = await read(stream, { open: () => {} });

    expect(error).toBeUndefined();
    expect(texts(items)).toEqual(['Your table for two is booked for eight.', 'finish']);
    expect(b.bodies.length).toBe(1);
    expect(b.bodies[0]!.messages).toEqual([{ role: 'user', content: 'Book a table for two at eight.' }]);
    expect((await stream.result).provider).toBe('b');
  });
});
