/**
 * A chat reply of white space only ("\n\n", then finish_reason stop) is an empty answer: the
 * next provider serves, alone the call throws, and in a hedged race it never beats a provider
 * about to give real text. White space before real text is kept, in order. The servers speak
 * OpenAI's chat SSE on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, type ChatEvent, ProtocolError } from '../../src/index.js';
import { chatChunk, drain, httpServer, router, sseFrames } from './wire/servers.js';

/** An SSE chat answer whose deltas are `texts`, then stop. */
const answer = (texts: string[]) =>
  sseFrames([
    chatChunk({ role: 'assistant', content: '' }),
    ...texts.map((content) => chatChunk({ content })),
    chatChunk({}, 'stop'),
    '[DONE]',
  ]);

/** A chat server answering `texts`, after `gate` resolves when given. */
function chatServer(texts: string[], gate?: Promise<void>) {
  return httpServer(async (req, res) => {
    req.resume();
    await gate;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(answer(texts));
  });
}

const provider = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  chat: { models: { fast: 'm' } },
});
const BOOK = [{ role: 'user' as const, content: 'Book a table.' }];
const show = (events: ChatEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : e.type));

describe('a white-space-only chat reply is an empty answer', () => {
  for (const blank of [['\n\n'], [' ', '\t', '\n'], ['']]) {
    it(`${JSON.stringify(blank)} then stop: the next provider serves`, async () => {
      const a = await chatServer(blank);
      const b = await chatServer(['Table booked.']);
      const stream = router({
        providers: { a: provider(a.url), b: provider(b.url) },
        routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).chat({ model: 'fast', messages: BOOK });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(show(items)).toEqual(['Table booked.', 'finish']);
      const result = await stream.result;
      expect(result.provider).toBe('b');
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      expect(result.attempts[0]!.error).toBeInstanceOf(ProtocolError);
      expect((result.attempts[0]!.error as Error).message).toBe("Provider 'a' gave an empty answer");
    });
  }

  it('alone: the call throws AllProvidersFailedError with the empty answer', async () => {
    const a = await chatServer(['\n\n']);
    const { items, error } = await drain(
      router({
        providers: { a: provider(a.url) },
        routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).chat({ model: 'fast', messages: BOOK }),
    );
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    expect((error as Error).message).toBe(
      "All providers failed for chat: a: Provider 'a' gave an empty answer",
    );
  });

  it('hedged: a blank reply never beats a provider about to give real text', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const slow = await chatServer(['Table booked.'], gate);
    const blank = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(answer(['\n\n']), () => open());
    });
    const stream = router({
      providers: { slow: provider(slow.url), blank: provider(blank.url) },
      routes: {
        chat: {
          providers: ['slow', 'blank'],
          strategy: 'priority',
          hedge: { after: 1 },
          firstChunkTimeoutMs: false,
        },
      },
    }).chat({ model: 'fast', messages: BOOK });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(show(items)).toEqual(['Table booked.', 'finish']);
    expect((await stream.result).provider).toBe('slow');
  });

  it('white space before real text is kept, in order, and a tool call after white space is an answer', async () => {
    const a = await chatServer(['\n', ' ', 'Table booked.', ' ']);
    const stream = router({
      providers: { a: provider(a.url) },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    }).chat({ model: 'fast', messages: BOOK });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(show(items)).toEqual(['\n', ' ', 'Table booked.', ' ', 'finish']);

    const tool = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sseFrames([
          chatChunk({ role: 'assistant', content: '\n' }),
          chatChunk({
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'book', arguments: '{}' } },
            ],
          }),
          chatChunk({}, 'tool_calls'),
          '[DONE]',
        ]),
      );
    });
    const called = await drain(
      router({
        providers: { a: provider(tool.url) },
        routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).chat({ model: 'fast', messages: BOOK }),
    );
    expect(called.error).toBeUndefined();
    expect(show(called.items)).toEqual(['\n', 'tool-call', 'finish']);
  });
});
