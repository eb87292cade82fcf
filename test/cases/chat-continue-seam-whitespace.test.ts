/**
 * `midStream: 'continue'` when the delivered text ends in white space (a line break in code, a
 * blank line between paragraphs): the continuation's own leading white space is part of the
 * reply (indentation, the second line break) and must reach the caller. Only a provider that
 * was sent the prefill without its trailing white space (Anthropic refuses it) repeats that
 * white space, and only that repeat is dropped. Before, the router dropped every leading white
 * space of any continuation after such a seam: `"def f():\n"` + `"    return 1\n"` reached the
 * caller as `"def f():\nreturn 1\n"`. The servers speak OpenAI's and Anthropic's chat SSE on
 * their own (node:http on loopback, written here).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, createRouter, type ProviderConfig, type Router } from '../../src/index.js';
import { withoutRepeatedSeam } from '../../src/providers/anthropic/prefill-seam.js';
import { anthropicSse, chatWireForFile, openAiReply, openAiSse, writeFlushed } from '../helpers/chat-wire.js';
import { firstTextGate as gate } from '../helpers/first-text-gate.js';

const { closers, server, chunk } = chatWireForFile('chatcmpl-seam');
const USER = { role: 'user', content: 'Write f.' } as const;

/** OpenAI chat SSE: `delivered`, then (once `opened`) the connection dropped. */
const cutting = (delivered: string, opened: Promise<void>) =>
  server(async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    await writeFlushed(
      res,
      openAiSse([chunk({ role: 'assistant', content: '' }), chunk({ content: delivered })]),
    );
    await opened;
    res.socket?.destroy();
  });

/** An Anthropic Messages stream of `texts`, one text_delta each. */
function anthropicAnswer(texts: string[], res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(
    anthropicSse([
      {
        type: 'message_start',
        message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'c', content: [], usage: {} },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ...texts.map((text) => ({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      })),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ]),
  );
}

async function continued(
  delivered: string,
  provider: (url: string) => ProviderConfig,
  answer: (res: ServerResponse) => void,
): Promise<{ text: string; prefill: unknown }> {
  const { opened, open } = gate();
  const a = await cutting(delivered, opened);
  const b = await server((res) => answer(res));
  const r: Router = createRouter({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: a.url, chat: { models: { f: 'm' } } },
      b: provider(b.url),
    },
    routes: { chat: { providers: ['a', 'b'], strategy: 'priority', midStream: 'continue' } },
  });
  closers.push(() => r.close());
  let text = '';
  for await (const e of r.chat({ model: 'f', messages: [USER] }) as AsyncIterable<ChatEvent>) {
    if (e.type !== 'text-delta') continue;
    text += e.text;
    open();
  }
  return { text, prefill: (b.bodies[0]!.messages as unknown[]).at(-1) };
}

const vllm = (url: string): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl: url,
  chat: { models: { f: 'm' }, continueFinalMessage: true },
});
const anthropic = (url: string): ProviderConfig => ({
  kind: 'anthropic',
  baseUrl: url,
  apiKey: 'test-key',
  chat: { models: { f: 'c' } },
});

describe('chat continue: white space at the seam', () => {
  it('seam-whitespace vLLM: the continuation keeps its indentation (sent the prefill whole)', async () => {
    const { text, prefill } = await continued('def f():\n', vllm, (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(openAiReply('chatcmpl-seam', '    return 1\n'));
    });
    expect(prefill).toEqual({ role: 'assistant', content: 'def f():\n' });
    expect(text).toBe('def f():\n    return 1\n');
  });

  it('seam-whitespace vLLM: a blank line between paragraphs stays', async () => {
    const { text } = await continued('Item one.\n', vllm, (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(openAiReply('chatcmpl-seam', '\n- Item two'));
    });
    expect(text).toBe('Item one.\n\n- Item two');
  });

  it('seam-whitespace Anthropic: only the repeat of the trimmed line break is dropped, across deltas', async () => {
    const { text, prefill } = await continued('def f():\n', anthropic, (res) =>
      anthropicAnswer(['\n', '    return 1\n'], res),
    );
    expect(prefill).toEqual({ role: 'assistant', content: 'def f():' });
    expect(text).toBe('def f():\n    return 1\n');
  });

  it('seam-whitespace: withoutRepeatedSeam drops the longest repeat of the trimmed tail only', async () => {
    const read = async (texts: string[], trimmed: string) => {
      async function* events(): AsyncGenerator<ChatEvent> {
        for (const text of texts) yield { type: 'text-delta', text };
      }
      const out: string[] = [];
      for await (const e of withoutRepeatedSeam(events(), trimmed))
        if (e.type === 'text-delta') out.push(e.text);
      return out;
    };
    expect(await read(['\n    return 1'], '\n')).toEqual(['    return 1']);
    expect(await read(['\n', '- two'], '\n\n')).toEqual(['- two']);
    expect(await read([' ', ' ', 'x'], ' ')).toEqual([' ', 'x']);
    expect(await read(['word'], ' ')).toEqual(['word']);
    expect(await read(['\t', 'x'], '\n')).toEqual(['\t', 'x']);
  });
});
