/**
 * C40: an in-band error that follows only content-free events (Anthropic message_start,
 * content_block_start and ping; an OpenAI or vLLM role-only delta) is a failure before output:
 * the router falls back as for an HTTP error status, and the caller sees only the fallback's
 * answer with one finish. Servers speak the wire on their own (loopback).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, VoxrouteError } from '../../src/index.js';
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

const MESSAGE_START = messageStart('msg_case_40', 12);
const BLOCK_START = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
const PING = { type: 'ping' };
const OVERLOADED = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };

/** A's 200 SSE body for each variant. */
const VARIANTS: Array<{ name: string; kind: 'anthropic' | 'openai-compatible'; body: string }> = [
  {
    name: 'Anthropic message_start, content_block_start, ping, then event: error overloaded_error',
    kind: 'anthropic',
    body: anthropicFrames([MESSAGE_START, BLOCK_START, PING, OVERLOADED]),
  },
  {
    name: 'OpenAI role-only delta (content "") then data: {"error":{"type":"rate_limit_exceeded"}}',
    kind: 'openai-compatible',
    body: sseFrames([
      chatChunk({ role: 'assistant', content: '' }),
      {
        error: {
          message: 'Rate limit reached for requests',
          type: 'rate_limit_exceeded',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
    ]),
  },
  {
    name: 'vLLM role-only delta then data: {"error":{...,"code":503}} and [DONE]',
    kind: 'openai-compatible',
    body: sseFrames([
      chatChunk({ role: 'assistant', content: '' }),
      {
        error: {
          message: 'The engine is overloaded',
          type: 'ServiceUnavailableError',
          param: null,
          code: 503,
        },
      },
      '[DONE]',
    ]),
  },
  {
    name: 'OpenAI role-only delta and a usage-only chunk, then an event: error frame',
    kind: 'openai-compatible',
    body: `${sseFrames([
      chatChunk({ role: 'assistant', content: '' }),
      {
        id: 'chatcmpl-case',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 },
      },
    ])}event: error\ndata: {"error":{"message":"insufficient_quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}\n\n`,
  },
  {
    name: 'Anthropic message_start then event: error api_error (no content block yet)',
    kind: 'anthropic',
    body: anthropicFrames([
      MESSAGE_START,
      { type: 'error', error: { type: 'api_error', message: 'Internal' } },
    ]),
  },
];

describe('C40: an in-band error after preamble events is a pre-output failure and falls back', () => {
  for (const variant of VARIANTS) {
    it(`C40: an in-band error after preamble events falls back to the next provider (${variant.name})`, async () => {
      const a = await httpServer(async (req, res) => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(variant.body);
      });
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        answerChat(res, 'Table booked.');
      });
      const config = chatPair(variant.kind, a.url, b.url, 'sk-ant-case-40');
      const r = router(config);
      const fallbacks: string[] = [];
      r.on('fallback', (e) => fallbacks.push(`${e.provider}->${e.next}`));
      const stream = r.chat({
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
      expect(result.provider).toBe('b');
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      expect((result.attempts[0]!.error as VoxrouteError).partialOutput).toBe(false);
      expect(fallbacks).toEqual(['a->b']);
      expect([a.hits, b.hits]).toEqual([1, 1]);
    });
  }
});
