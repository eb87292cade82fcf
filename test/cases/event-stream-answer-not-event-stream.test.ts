/**
 * An event-stream request (chat, SSE speech, Cartesia /tts/sse) answered 200 with something
 * that is not an event stream: an HTML page (a captive portal, a proxy's page) kept open fails
 * the attempt at once with a ProtocolError naming the Content-Type, not at the idle deadline;
 * an error sent whole as a JSON document is the provider's ProviderError with its type, code and
 * retryable, as the same error inside the stream (it was a ProtocolError that lost them); a JSON
 * document that is no error is a ProtocolError. An event stream labelled with another type still
 * streams. Servers speak the wire on their own (loopback).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  ProtocolError,
  ProviderError,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import {
  answerChat,
  answerPcm,
  anthropicFrames,
  closed,
  concat,
  drain,
  httpServer,
  messageStart,
  pcmSignal,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

type ProviderConfig = RouterConfig['providers'][string];
type Cap = 'chat' | 'tts';

const AUDIO = pcmSignal(2400, 24_000, 4);
const B_AUDIO = pcmSignal(2400, 24_000, 5);

/** One event-stream wire: its provider config at a URL, the capability, and a whole event stream of it. */
interface Wire {
  name: string;
  cap: Cap;
  provider(url: string): ProviderConfig;
  stream: string;
}

const WIRES: Wire[] = [
  {
    name: 'OpenAI-compatible chat',
    cap: 'chat',
    provider: (url) => ({ kind: 'openai-compatible', baseUrl: url, chat: { models: { fast: 'm' } } }),
    stream: sseFrames([
      { choices: [{ index: 0, delta: { content: 'Booked.' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      '[DONE]',
    ]),
  },
  {
    name: 'Anthropic Messages',
    cap: 'chat',
    provider: (url) => ({
      kind: 'anthropic',
      baseUrl: url,
      apiKey: 'sk-ant-not-a-stream-0123',
      chat: { models: { fast: 'claude-x' } },
    }),
    stream: anthropicFrames([
      messageStart('msg_not_a_stream', 3),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Booked.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ]),
  },
  {
    name: 'OpenAI-compatible speech, streamFormat sse',
    cap: 'tts',
    provider: (url) => ({
      kind: 'openai-compatible',
      baseUrl: url,
      tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' },
    }),
    stream: sseFrames([
      { type: 'speech.audio.delta', audio: AUDIO.toString('base64') },
      { type: 'speech.audio.done', usage: { input_tokens: 2, output_tokens: 3, total_tokens: 5 } },
    ]),
  },
  {
    name: 'Cartesia /tts/sse',
    cap: 'tts',
    provider: (url) => ({
      kind: 'cartesia',
      baseUrl: url,
      apiKey: 'sk_car_not_a_stream',
      tts: { voices: { agent: 'v' }, transport: 'sse' },
    }),
    stream: sseFrames([
      { type: 'chunk', data: AUDIO.toString('base64'), done: false, status_code: 206 },
      { type: 'done', done: true, status_code: 200 },
    ]),
  },
];

/** A's server: every request answered by `answer` after its body is read. */
async function serverA(answer: (res: ServerResponse, req: IncomingMessage) => void) {
  return httpServer(async (req, res) => {
    await readBody(req);
    answer(res, req);
  });
}

/** B: an OpenAI-compatible server answering chat with 'Table booked.' and speech with B_AUDIO. */
async function serverB() {
  return httpServer(async (req, res) => {
    await readBody(req);
    if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Table booked.');
    else answerPcm(res, B_AUDIO);
  });
}

/** The route of `cap` over `order`; no first-chunk deadline and a 30 s idle one, so only the answer's check can end A early. */
function config(cap: Cap, providers: RouterConfig['providers'], order: string[]): RouterConfig {
  return {
    providers,
    routes: {
      [cap]: { providers: order, strategy: 'priority', firstChunkTimeoutMs: false, idleTimeoutMs: 30_000 },
    },
  };
}

function call(r: ReturnType<typeof router>, cap: Cap) {
  return cap === 'chat'
    ? r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast' })
    : r.tts({ text: 'Your table is booked.', voice: 'agent' });
}

/** What a call's items were: the chat text, or the audio bytes. */
function received(items: unknown[]): string | Buffer {
  const chunks = items as Array<{ type?: string; text?: string; data?: Uint8Array }>;
  if (chunks.some((c) => c.data instanceof Uint8Array)) return concat(chunks.map((c) => c.data!));
  return chunks.map((c) => (c.type === 'text-delta' ? c.text : `[${c.type}]`)).join('');
}

/** The only attempt's error of a call that failed alone. */
function aloneError(error: unknown): VoxrouteError {
  expect(AllProvidersFailedError.isInstance(error)).toBe(true);
  const attempts = (error as AllProvidersFailedError).attempts;
  expect(attempts.length).toBe(1);
  return attempts[0]!.error as VoxrouteError;
}

describe('a 200 answer that is not an event stream, to an event-stream request', () => {
  for (const wire of WIRES) {
    it(`an HTML page kept open fails at once with a ProtocolError naming its type, and the route falls back (${wire.name})`, async () => {
      const a = await serverA((res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<html>\n<body>\nPlease sign in to the network\n');
      });
      const b = await serverB();
      const backup = router(
        config(
          wire.cap,
          {
            a: wire.provider(a.url),
            b:
              wire.cap === 'chat'
                ? { kind: 'openai-compatible', baseUrl: b.url, chat: { models: { fast: 'm' } } }
                : { kind: 'openai-compatible', baseUrl: b.url, tts: { voices: { agent: 'alloy' } } },
          },
          ['a', 'b'],
        ),
      );
      const stream = call(backup, wire.cap);
      const { items, error } = await drain(stream as AsyncIterable<unknown>);
      expect(error).toBeUndefined();
      expect(received(items)).toEqual(wire.cap === 'chat' ? 'Table booked.[finish]' : B_AUDIO);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const failure = result.attempts[0]!.error as VoxrouteError;
      expect(ProtocolError.isInstance(failure)).toBe(true);
      expect([failure.message, failure.retryable, failure.partialOutput]).toEqual([
        "Answer has Content-Type 'text/html; charset=utf-8', not text/event-stream",
        true,
        false,
      ]);
      // A's connection is closed, not left to the idle deadline.
      await closed(a.sockets[0]!);
    });

    for (const bom of ['', '\uFEFF']) {
      it(`an error sent whole as a 200 JSON document${bom ? ' after a byte order mark' : ''} is the provider's error, with its type and code (${wire.name})`, async () => {
        const a = await serverA((res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            bom +
              JSON.stringify({
                error: {
                  message: 'You exceeded your current quota',
                  type: 'insufficient_quota',
                  param: null,
                  code: 'insufficient_quota',
                },
              }),
          );
        });
        const r = router(config(wire.cap, { a: wire.provider(a.url) }, ['a']));
        const { items, error } = await drain(call(r, wire.cap) as AsyncIterable<unknown>);
        expect(items).toEqual([]);
        const failure = aloneError(error);
        expect(ProviderError.isInstance(failure)).toBe(true);
        const e = failure as ProviderError;
        expect([e.message, e.providerType, e.providerCode, e.retryable, e.partialOutput, e.status]).toEqual([
          "Provider 'a' sent an error mid-stream (insufficient_quota/insufficient_quota): You exceeded your current quota",
          'insufficient_quota',
          'insufficient_quota',
          false,
          false,
          undefined,
        ]);
      });
    }

    it(`a JSON document that is no error (a server that ignored stream: true) is a ProtocolError (${wire.name})`, async () => {
      const a = await serverA((res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(
          ` ${JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Booked.' }, finish_reason: 'stop' }] })}`,
        );
      });
      const r = router(config(wire.cap, { a: wire.provider(a.url) }, ['a']));
      const { items, error } = await drain(call(r, wire.cap) as AsyncIterable<unknown>);
      expect(items).toEqual([]);
      const failure = aloneError(error);
      expect(ProtocolError.isInstance(failure)).toBe(true);
      expect([failure.message, failure.retryable]).toEqual([
        "Answer is a JSON document (Content-Type 'application/json; charset=utf-8'), not an event stream",
        true,
      ]);
    });

    for (const [type, bom] of [
      ['application/json', ''],
      ['text/plain', ''],
      ['application/json', '\uFEFF'],
    ]) {
      it(`an event stream labelled ${type}${bom ? ' after a byte order mark' : ''} still streams (${wire.name})`, async () => {
        const a = await serverA((res) => {
          res.writeHead(200, { 'content-type': type! });
          res.end(bom + wire.stream);
        });
        const r = router(config(wire.cap, { a: wire.provider(a.url) }, ['a']));
        const { items, error } = await drain(call(r, wire.cap) as AsyncIterable<unknown>);
        expect(error).toBeUndefined();
        expect(received(items)).toEqual(wire.cap === 'chat' ? 'Booked.[finish]' : AUDIO);
      });
    }
  }
});
