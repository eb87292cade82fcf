/**
 * Malformed frames: an Anthropic `content_block_delta` `text_delta` for a block that was never
 * started (a gateway that dropped or merged events), or for a `tool_use` block, is not part of
 * the reply. It is a ProtocolError: before any output the router falls back and the caller sees
 * only the fallback's answer; a well-formed stream is unchanged. Servers speak the wire on their
 * own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { type ChatEvent, ProtocolError } from '../../src/index.js';
import {
  answerChat,
  anthropicFrames,
  chatPair,
  drain,
  httpServer,
  messageStart,
  readBody,
  router,
} from './wire/servers.js';

const MESSAGE_START = messageStart('msg_case_orphan', 9);
const textDelta = (index: number, text: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text },
});
const END = [
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
  { type: 'message_stop' },
];

const BODIES: Array<[string, Array<Record<string, unknown>>, string]> = [
  [
    'a text_delta for a block never started',
    [MESSAGE_START, textDelta(3, 'Stray'), ...END],
    'text_delta for block 3, not an open text block',
  ],
  [
    'a text_delta for a tool_use block',
    [
      MESSAGE_START,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: 'book', input: {} },
      },
      textDelta(0, '{"people":4}'),
      { type: 'content_block_stop', index: 0 },
      ...END,
    ],
    'text_delta for block 0, not an open text block',
  ],
  [
    'a text_delta after its block was stopped',
    [
      MESSAGE_START,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_stop', index: 0 },
      textDelta(0, 'Late'),
      ...END,
    ],
    'text_delta for block 0, not an open text block',
  ],
];

describe('malformed frames: an Anthropic text_delta outside an open text block', () => {
  for (const [what, events, message] of BODIES)
    it(`${what}: ProtocolError before output, the fallback answers`, async () => {
      const a = await httpServer(async (req, res) => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(anthropicFrames(events));
      });
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        answerChat(res, 'Table booked.');
      });
      const stream = router(chatPair('anthropic', a.url, b.url, 'sk-ant-case-orphan')).chat({
        messages: [{ role: 'user', content: 'Book a table for four.' }],
        model: 'fast',
      });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(items).toEqual<ChatEvent[]>([
        { type: 'text-delta', text: 'Table booked.' },
        { type: 'finish', finishReason: 'stop' },
      ]);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const cause = result.attempts[0]!.error as ProtocolError;
      expect(cause).toBeInstanceOf(ProtocolError);
      expect(cause.message).toContain(message);
      expect(cause.partialOutput).toBe(false);
    });

  it('a well-formed text block is read as before', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        anthropicFrames([
          MESSAGE_START,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          textDelta(0, 'Booked '),
          textDelta(0, 'for four.'),
          { type: 'content_block_stop', index: 0 },
          ...END,
        ]),
      );
    });
    const b = await httpServer(async (req, res) => {
      await readBody(req);
      answerChat(res, 'unused');
    });
    const { items, error } = await drain(
      router(chatPair('anthropic', a.url, b.url, 'sk-ant-case-orphan')).chat({
        messages: [{ role: 'user', content: 'Book a table for four.' }],
        model: 'fast',
      }),
    );
    expect(error).toBeUndefined();
    expect(items.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Booked ',
      'for four.',
    ]);
    expect(b.hits).toBe(0);
  });
});
