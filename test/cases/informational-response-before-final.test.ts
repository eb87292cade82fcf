/**
 * An informational response (102 Processing, 103 Early Hints: any 1xx but 101) before the final
 * one is skipped, on every HTTP path: the final status, headers and body are the answer. A CDN or
 * gateway in front of a healthy provider that sends Early Hints must not take it out of service.
 * The servers speak the wire on their own (node:http `writeProcessing` / `writeEarlyHints`, raw
 * 1xx bytes before a WebSocket handshake's 101, SageMaker's event stream through the AWS SDK).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  type ChatEvent,
  ProviderError,
  type Router,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { fieldsOf } from '../helpers/errors.js';
import {
  anthropicFrames,
  chatChunk,
  concat,
  drain,
  httpServer,
  messageStart,
  pcmSignal,
  readBody,
  router,
  sseFrames,
  writeInformational,
} from './wire/servers.js';
import { TTS_KINDS } from './wire/tts-servers.js';

const TEXT = 'Your table is booked.';
const AUDIO = pcmSignal(4800, 24_000);
const MORE_AUDIO = pcmSignal(2400, 24_000, 2);
const MESSAGES = [{ role: 'user' as const, content: 'Book a table for four.' }];
/** A deadline so that a call stuck on the 1xx fails instead of hanging the test. */
const FIRST_CHUNK_MS = 5000;

/** A chat wire: its provider config for `url`, and the two halves of a reply "Hello" + " world". */
interface ChatWire {
  name: string;
  provider(url: string): RouterConfig['providers'][string];
  head: string;
  tail: string;
}

const CHAT_WIRES: readonly ChatWire[] = [
  {
    name: 'OpenAI-compatible chat SSE',
    provider: (url) => ({ kind: 'openai-compatible', baseUrl: `${url}/v1`, chat: { models: { fast: 'm' } } }),
    head: sseFrames([chatChunk({ role: 'assistant', content: 'Hello' })]),
    tail: sseFrames([chatChunk({ content: ' world' }), chatChunk({}, 'stop'), '[DONE]']),
  },
  {
    name: 'Anthropic Messages SSE',
    provider: (url) => ({
      kind: 'anthropic',
      baseUrl: url,
      apiKey: 'sk-ant-early-hints',
      chat: { models: { fast: 'claude-x' } },
    }),
    head: anthropicFrames([
      messageStart('msg_1', 5),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
    ]),
    tail: anthropicFrames([
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' world' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 2 },
      },
      { type: 'message_stop' },
    ]),
  },
];

/** Errors charged to each provider of `capability` in `router.stats()`. */
function errorsOf(r: Router, capability: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of r.stats().providers) if (s.capability === capability) out[s.provider] = s.errors;
  return out;
}

/**
 * A server answering 102 and 103, then a 200 whose body is `head`, then (once the test saw the
 * first output) `tail`: the body is still streaming when the client reads the final status.
 */
async function streamingServer(contentType: string, head: string | Buffer, tail: string | Buffer) {
  const more = deferred();
  const wire = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    await readBody(req);
    writeInformational(res);
    res.writeHead(200, { 'content-type': contentType });
    res.write(head);
    await more.promise;
    res.end(tail);
  });
  return { wire, more };
}

/** A server answering 102 and 103, then a 503 with an OpenAI-style error body. */
/** `a` failed with its retryable 503 (the final response after the 1xx), then `b` served. */
function expectFellBackFrom503(
  attempts: ReadonlyArray<{ provider: string; outcome: string; error?: unknown }>,
): void {
  expect(attempts.map((x) => [x.provider, x.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
  expect(fieldsOf(attempts[0]!.error, ProviderError, 'status', 'retryable', 'message')).toEqual({
    status: 503,
    retryable: true,
    message: "Provider 'a' answered HTTP 503: Overloaded",
  });
}

async function overloadedServer() {
  return httpServer(async (req, res) => {
    await readBody(req);
    writeInformational(res);
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Overloaded', type: 'server_error' } }));
  });
}

describe('informational-response: a 1xx before the final response is skipped', () => {
  for (const wire of CHAT_WIRES) {
    it(`informational-response: chat() over ${wire.name}: 102 and 103, then a streamed 200 is the answer`, async () => {
      const { wire: server, more } = await streamingServer('text/event-stream', wire.head, wire.tail);
      const r = router({
        providers: { a: wire.provider(server.url) },
        routes: { chat: { providers: ['a'], firstChunkTimeoutMs: FIRST_CHUNK_MS } },
      });
      const stream = r.chat({ messages: MESSAGES, model: 'fast' });
      const iterator = stream[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first).toEqual({ done: false, value: { type: 'text-delta', text: 'Hello' } });
      more.resolve();
      const rest: ChatEvent[] = [];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
      expect(rest).toEqual([
        { type: 'text-delta', text: ' world' },
        expect.objectContaining({ type: 'finish', finishReason: 'stop' }),
      ]);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
      expect(errorsOf(r, 'chat')).toEqual({ a: 0 });
    });
  }

  it('informational-response: tts() over OpenAI-compatible /audio/speech: 102 and 103, then a streamed 200 is the answer', async () => {
    const { wire: server, more } = await streamingServer('audio/pcm', AUDIO, MORE_AUDIO);
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${server.url}/v1`, tts: { voices: { agent: 'v' } } },
      },
      routes: { tts: { providers: ['a'], firstChunkTimeoutMs: FIRST_CHUNK_MS } },
    });
    const stream = r.tts({ text: TEXT, voice: 'agent' });
    const iterator = stream[Symbol.asyncIterator]();
    const chunks: Uint8Array[] = [];
    const first = await iterator.next();
    expect(first.done).toBe(false);
    if (!first.done) chunks.push(first.value.data);
    more.resolve();
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      chunks.push(next.value.data);
    expect(concat(chunks).equals(Buffer.concat([AUDIO, MORE_AUDIO]))).toBe(true);
    expect(errorsOf(r, 'tts')).toEqual({ a: 0 });
  });

  for (const kind of TTS_KINDS) {
    it(`informational-response: tts() over ${kind.name}: 102 and 103 before the final response (200, or 101 of a handshake)`, async () => {
      const a = await kind.serve(() => AUDIO, { informational: true });
      const r = router({
        providers: { a: a.provider },
        routes: { tts: { providers: ['a'], firstChunkTimeoutMs: FIRST_CHUNK_MS } },
      });
      const { items, error } = await drain(r.tts({ text: TEXT, voice: 'agent' }));
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
      expect(a.requests).toEqual([TEXT]);
      expect(errorsOf(r, 'tts')).toEqual({ a: 0 });
    });
  }

  it('informational-response: chat(): 102 and 103, then 503: the 503 is the failure (retryable) and the route falls back', async () => {
    const a = await overloadedServer();
    const b = await streamingServer('text/event-stream', CHAT_WIRES[0]!.head, CHAT_WIRES[0]!.tail);
    b.more.resolve();
    const r = router({
      providers: { a: CHAT_WIRES[0]!.provider(a.url), b: CHAT_WIRES[0]!.provider(b.wire.url) },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: FIRST_CHUNK_MS } },
    });
    const stream = r.chat({ messages: MESSAGES, model: 'fast' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.filter((e) => e.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' world' },
    ]);
    const result = await stream.result;
    expectFellBackFrom503(result.attempts);
    expect((result.attempts[0]!.error as VoxrouteError).partialOutput).toBe(false);
  });

  it('informational-response: tts(): 102 and 103, then 503: the 503 is the failure (retryable) and the route falls back', async () => {
    const a = await overloadedServer();
    const b = await TTS_KINDS[0]!.serve(() => AUDIO, { informational: true });
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, tts: { voices: { agent: 'v' } } },
        b: b.provider,
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: FIRST_CHUNK_MS } },
    });
    const stream = r.tts({ text: TEXT, voice: 'agent' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    const result = await stream.result;
    expectFellBackFrom503(result.attempts);
    expect(errorsOf(r, 'tts')).toEqual({ a: 1, b: 0 });
  });
});
