/**
 * A refusal with no text (Anthropic `stop_reason: "refusal"`, OpenAI `finish_reason:
 * "content_filter"`) is the provider's deliberate answer, not an empty one: the caller gets the
 * finish with reason `content-filter`, and no other provider is asked (falling back would route
 * around a safety stop). An empty reply with any other reason stays an empty answer (see
 * blank-chat-reply.test.ts). The servers speak each wire on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import {
  answerChat,
  anthropicFrames,
  chatChunk,
  chatPair,
  drain,
  httpServer,
  messageStart,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

const REFUSALS: Array<{
  name: string;
  kind: 'anthropic' | 'openai-compatible';
  body: string;
  finish: Record<string, unknown>;
}> = [
  {
    name: 'Anthropic: an empty text block, then stop_reason refusal',
    kind: 'anthropic',
    body: anthropicFrames([
      messageStart('msg_refusal', 9),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'refusal', stop_sequence: null },
        usage: { output_tokens: 0 },
      },
      { type: 'message_stop' },
    ]),
    finish: { type: 'finish', finishReason: 'content-filter', usage: { inputTokens: 9, outputTokens: 0 } },
  },
  {
    name: 'OpenAI: a role-only delta, then finish_reason content_filter',
    kind: 'openai-compatible',
    body: sseFrames([
      chatChunk({ role: 'assistant', content: '' }),
      chatChunk({}, 'content_filter'),
      '[DONE]',
    ]),
    finish: { type: 'finish', finishReason: 'content-filter' },
  },
];

describe('refusal-is-an-answer: a refusal with no text is delivered, not a fallback', () => {
  for (const refusal of REFUSALS) {
    it(refusal.name, async () => {
      const asked: string[] = [];
      const a = await httpServer(async (req, res) => {
        await readBody(req);
        asked.push('a');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(refusal.body);
      });
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        asked.push('b');
        answerChat(res, 'Table booked.');
      });
      const config = chatPair(refusal.kind, a.url, b.url, 'sk-ant-refusal');
      const stream = router(config).chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi.' }] });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(items).toEqual([refusal.finish]);
      const result = await stream.result;
      expect(result.provider).toBe('a');
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
      expect(asked).toEqual(['a']);
    });
  }
});
