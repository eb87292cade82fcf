/**
 * `midStream: 'continue'` when the caller's own messages already end with an assistant message
 * (a prefill the reply continues). The provider that takes the cut reply over must get ONE
 * assistant message, the caller's prefill followed by the text delivered, put on its own wire:
 * Anthropic trimmed at the end (the Messages API refuses a final assistant message ending in
 * white space), a vLLM-style server with `continue_final_message` (which continues only the last
 * message). Before, Anthropic got the two merged into content blocks, the last one ending in a
 * space (400 from the real API), and vLLM two assistant messages, so it continued only the
 * partial reply and rendered the caller's prefill as a finished turn. The continuation is also
 * sent what is left of the caller's `maxTokens`: the budget less an estimate of the tokens
 * delivered (one per 4 ASCII characters). The servers speak OpenAI's and Anthropic's chat SSE on
 * their own (node:http on loopback, written here), and the Anthropic one refuses a prefill
 * ending in white space as the real API does; the cut waits until the caller has the text.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, createRouter, type ProviderConfig, type Router } from '../../src/index.js';
import { anthropicSse, chatWireForFile, openAiReply, openAiSse, writeFlushed } from '../helpers/chat-wire.js';
import { firstTextGate as gate } from '../helpers/first-text-gate.js';

/** `server` serves a handler until the end of the test; `chunk` is a chunk of this file's reply. */
const { closers, server, chunk } = chatWireForFile('chatcmpl-prefill');

const USER = { role: 'user', content: 'What is 2+2?' } as const;
/** The caller's own prefill. */
const PREFILL = { role: 'assistant', content: 'The answer is' } as const;
/** What the first provider streams before its connection drops: 13 ASCII characters, 4 tokens. */
const DELIVERED = [' four', ', since '];

/** OpenAI chat SSE: the DELIVERED deltas, then (once `opened`) the connection dropped. */
const cutting = (opened: Promise<void>) =>
  server(async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    await writeFlushed(
      res,
      openAiSse([chunk({ role: 'assistant', content: '' }), ...DELIVERED.map((t) => chunk({ content: t }))]),
    );
    await opened;
    res.socket?.destroy();
  });

describe("chat continue after the caller's own prefill", () => {
  const cases: Array<{
    name: string;
    provider: (url: string) => ProviderConfig;
    answer: (body: Record<string, unknown> & { messages: unknown[] }, res: ServerResponse) => void;
    body: (maxTokens: number | undefined) => Record<string, unknown>;
    /** The call's last event: the continuing provider's finish, with its own usage. */
    finish: ChatEvent;
  }> = [
    {
      name: 'Anthropic',
      // Answers 400 to a final assistant message ending in white space, as the API does.
      provider: (url) => ({
        kind: 'anthropic',
        baseUrl: url,
        apiKey: 'test-key',
        chat: { models: { f: 'claude-x' } },
      }),
      answer: (body, res) => {
        const last = body.messages.at(-1) as { role: string; content: string | Array<{ text?: string }> };
        const text = typeof last.content === 'string' ? last.content : (last.content.at(-1)?.text ?? '');
        if (last.role === 'assistant' && /\s$/.test(text)) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              type: 'error',
              error: {
                type: 'invalid_request_error',
                message: 'messages: final assistant content cannot end with trailing whitespace',
              },
            }),
          );
          return;
        }
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
                usage: { input_tokens: 20, output_tokens: 1 },
              },
            },
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: ' two and two make four.' },
            },
            { type: 'content_block_stop', index: 0 },
            { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } },
            { type: 'message_stop' },
          ]),
        );
      },
      body: (maxTokens) => ({
        model: 'claude-x',
        max_tokens: maxTokens ?? 1024,
        messages: [USER, { role: 'assistant', content: 'The answer is four, since' }],
        stream: true,
      }),
      finish: { type: 'finish', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 7 } },
    },
    {
      name: 'vLLM (continueFinalMessage)',
      provider: (url) => ({
        kind: 'openai-compatible',
        baseUrl: url,
        chat: { models: { f: 'm' }, continueFinalMessage: true },
      }),
      answer: (_body, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(openAiReply('chatcmpl-prefill', 'two and two make four.'));
      },
      body: (maxTokens) => ({
        model: 'm',
        messages: [USER, { role: 'assistant', content: 'The answer is four, since ' }],
        stream: true,
        stream_options: { include_usage: true },
        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
        continue_final_message: true,
        add_generation_prompt: false,
      }),
      finish: { type: 'finish', finishReason: 'stop' },
    },
  ];

  for (const c of cases) {
    it.each([
      ['maxTokens 50: the continuation gets 46', 50, 46],
      ['no maxTokens: none from the router', undefined, undefined],
    ])(
      `${c.name}: one assistant message, prefill + partial reply; %s`,
      async (_name, maxTokens, continued) => {
        const { opened, open } = gate();
        const a = await cutting(opened);
        const b = await server((res) => c.answer(b.bodies.at(-1)!, res));
        const r: Router = createRouter({
          providers: {
            a: { kind: 'openai-compatible', baseUrl: a.url, chat: { models: { f: 'm' } } },
            b: c.provider(b.url),
          },
          routes: { chat: { providers: ['a', 'b'], strategy: 'priority', midStream: 'continue' } },
        });
        closers.push(() => r.close());
        const texts: string[] = [];
        const events: ChatEvent[] = [];
        for await (const e of r.chat({
          model: 'f',
          messages: [USER, PREFILL],
          ...(maxTokens === undefined ? {} : { maxTokens }),
        })) {
          events.push(e);
          if (e.type !== 'text-delta') continue;
          texts.push(e.text);
          if (texts.length === DELIVERED.length) open();
        }

        expect(texts).toEqual([...DELIVERED, 'two and two make four.']);
        expect(events.filter((e) => e.type === 'finish')).toEqual([c.finish]);
        expect(events.at(-1)).toEqual(c.finish);
        // The first provider got the caller's prefill as it was, and the caller's budget.
        expect(a.bodies.map((x) => [x.messages, x.max_tokens])).toEqual([[[USER, PREFILL], maxTokens]]);
        expect(b.bodies).toEqual([c.body(continued)]);
      },
    );
  }
});
