/**
 * vLLM's flat error object `{"object":"error","code":429,...}` inside a 200 SSE chat stream is
 * the provider's error (code, retryable by the code as an HTTP status), not a ProtocolError.
 * The server speaks SSE on its own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/index.js';
import {
  answerChat,
  chatChunk,
  drain,
  httpServer,
  readBody,
  router,
  sseFrames,
} from '../../cases/wire/servers.js';

async function chatWith(inband: Record<string, unknown>) {
  const a = await httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sseFrames([chatChunk({ role: 'assistant' }), inband]));
  });
  const b = await httpServer(async (req, res) => {
    await readBody(req);
    answerChat(res, 'Table booked.');
  });
  const r = router({
    providers: {
      A: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { m: 'x' } } },
      B: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, chat: { models: { m: 'x' } } },
    },
    routes: { chat: { providers: ['A', 'B'], strategy: 'priority' } },
  });
  const fallbacks: unknown[] = [];
  r.on('fallback', (ev) => fallbacks.push(ev.error));
  const { items, error } = await drain(r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
  const text = items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
  return { text, error, fallbacks, bHits: b.hits };
}

describe('vLLM {"object":"error"} inside a 200 chat stream', () => {
  it('code 429: a retryable ProviderError with providerCode 429, then the next provider answers', async () => {
    const { text, error, fallbacks, bHits } = await chatWith({
      object: 'error',
      message: 'busy',
      type: 'ServiceUnavailable',
      param: null,
      code: 429,
    });
    expect([error, text, bHits]).toEqual([undefined, 'Table booked.', 1]);
    expect(fallbacks).toHaveLength(1);
    const e = fallbacks[0] as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.message).toBe("Provider 'A' sent an error mid-stream (ServiceUnavailable/429): busy");
    expect([e.provider, e.providerCode, e.providerType, e.retryable, e.partialOutput]).toEqual([
      'A',
      429,
      'ServiceUnavailable',
      true,
      false,
    ]);
  });

  it('code 400: a ProviderError that is not retryable', async () => {
    const { fallbacks } = await chatWith({
      object: 'error',
      message: 'max_tokens too large',
      type: 'BadRequestError',
      code: 400,
    });
    const e = fallbacks[0] as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect([e.message, e.providerCode, e.retryable]).toEqual([
      "Provider 'A' sent an error mid-stream (BadRequestError/400): max_tokens too large",
      400,
      false,
    ]);
  });
});
