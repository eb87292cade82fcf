/**
 * Kind 5, wrong classification: here the Anthropic chat `continue` seam, where the partial reply
 * ends in a space (refused at the end of a prefill, so trimmed) and the next provider's
 * continuation starts with one: the caller must read one space, not two. Servers speak the
 * Messages stream on their own (loopback).
 */
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { drain, httpServer, readBody, router } from '../cases/wire/servers.js';

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function messagesStream(texts: string[], end: 'stop' | 'error'): string {
  const out = [
    frame('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } }),
    frame('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    ...texts.map((text) =>
      frame('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
    ),
  ];
  if (end === 'error')
    out.push(frame('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
  else
    out.push(
      frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
      frame('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 2 },
      }),
      frame('message_stop', { type: 'message_stop' }),
    );
  return out.join('');
}

describe('kind 5: classification and seams', () => {
  it('anthropic chat continue: no doubled space at the seam', async () => {
    const prefills: unknown[] = [];
    const serve = (texts: string[], end: 'stop' | 'error') =>
      httpServer(async (req, res) => {
        const body = JSON.parse((await readBody(req)).toString()) as {
          messages: { role: string; content: unknown }[];
        };
        const last = body.messages.at(-1)!;
        if (last.role === 'assistant') prefills.push(last.content);
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(messagesStream(texts, end));
      });
    const a = await serve(['Hello '], 'error');
    const b = await serve([' world', '.'], 'stop');
    const provider = (url: string) => ({
      kind: 'anthropic' as const,
      baseUrl: url,
      apiKey: 'test-key-123456',
      chat: { models: { fast: 'claude' } },
    });
    const r = router({
      providers: { a: provider(a.url), b: provider(b.url) },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority', midStream: 'continue' } },
    } as RouterConfig);
    const { items, error } = await drain(
      r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Greet' }] }),
    );
    expect(error).toBeUndefined();
    const text = items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    expect(text).toBe('Hello world.');
    expect(prefills).toEqual(['Hello']);
  });
});
