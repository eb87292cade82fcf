/**
 * Barge-in must not reconnect: a call stopped while the provider's HTTP answer streams (the
 * caller's abort, a `break`, a hedge's losing attempt) closes that request's connection, and
 * opens no other. undici (7.x, nodejs/undici#5845) closes an aborted request's socket with an
 * informational error, which puts the aborted request back in its Client's queue as pending;
 * when the socket's 'close' event comes, the Client opens a new connection for it, then drops
 * the request, which was aborted. Every barge-in thus cost the provider (and us) one more TCP
 * (and TLS) handshake to a connection that carries nothing, kept the process alive while it
 * connected, and left it idle in the pool when other calls held the origin's pool open.
 *
 * The servers are node:http servers of their own, speaking the wire (OpenAI's raw PCM speech,
 * Anthropic's SSE) and counting the TCP connections and requests they accept. undici's own
 * diagnostics channels (`undici:client:connected`, `undici:client:beforeConnect`) give the
 * client's socket and each connect it starts: the check runs at the aborted socket's 'close'
 * event, which is where undici would start the new connect (synchronously, in its own listener
 * of that event, registered before this test's).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AbortError, type RouterConfig } from '../../src/index.js';
import { drain, type HttpWire, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const AUDIO = pcmSignal(4800, 24_000);

/** Every connect undici starts and every connection it opens, with the port they go to. */
const connects: number[] = [];
const connected: Array<{ port: number; closed: Promise<unknown> }> = [];
const onBeforeConnect = (message: unknown) => {
  connects.push(Number((message as { connectParams: { port: string | number } }).connectParams.port));
};
const onConnected = (message: unknown) => {
  const { connectParams, socket } = message as { connectParams: { port: string | number }; socket: Socket };
  // Listened to from the start (undici's own listeners were added before this channel's message).
  connected.push({
    port: Number(connectParams.port),
    closed: new Promise((resolve) => socket.once('close', resolve)),
  });
};
subscribe('undici:client:beforeConnect', onBeforeConnect);
subscribe('undici:client:connected', onConnected);
afterEach(() => {
  connects.length = 0;
  connected.length = 0;
});
// Channels are process-wide, and test files share their worker's module graph.
afterAll(() => {
  unsubscribe('undici:client:beforeConnect', onBeforeConnect);
  unsubscribe('undici:client:connected', onConnected);
});

function portOf(wire: HttpWire): number {
  return Number(new URL(wire.url).port);
}

/** Resolves once undici's socket to `wire` (the first one) has emitted 'close'. */
async function clientSocketClosed(wire: HttpWire): Promise<void> {
  const first = connected.find((c) => c.port === portOf(wire));
  expect(first?.port, 'undici connected to the server').toBe(portOf(wire));
  await first!.closed;
}

/** How many connects undici started to `wire`. */
function connectsTo(wire: HttpWire): number {
  return connects.filter((port) => port === portOf(wire)).length;
}

/** A speech server: the first request gets 200 and one chunk of audio, then nothing (held open); later ones all of it. */
function speechServer(): Promise<HttpWire> {
  return httpServer(async (req: IncomingMessage, res: ServerResponse, n: number) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    if (n === 1) res.write(AUDIO.subarray(0, 960));
    else res.end(AUDIO);
  });
}

const ttsConfig = (...urls: string[]): RouterConfig =>
  ({
    providers: Object.fromEntries(
      urls.map((url, i) => [
        `p${i}`,
        { kind: 'openai-compatible', baseUrl: `${url}/v1`, tts: { voices: { agent: 'v' } } },
      ]),
    ),
    routes: { tts: { providers: urls.map((_, i) => `p${i}`), strategy: 'priority' } },
  }) as RouterConfig;

describe('a barge-in on a streaming HTTP answer opens no new connection', () => {
  it('tts: the caller aborts after the first chunk; the next call gets a connection of its own', async () => {
    const wire = await speechServer();
    const r = router(ttsConfig(wire.url));
    const controller = new AbortController();
    const reason = new Error('the user spoke');
    let chunks = 0;
    const { error } = await drain(
      (async function* () {
        for await (const chunk of r.tts({
          text: 'Hello there.',
          voice: 'agent',
          signal: controller.signal,
        })) {
          chunks++;
          yield chunk;
          controller.abort(reason);
        }
      })(),
    );
    expect(chunks).toBe(1);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as AbortError).cause).toBe(reason);
    await clientSocketClosed(wire);
    expect(connectsTo(wire)).toBe(1);

    // The next call is served on a connection opened for it: the server accepted two, one per request.
    const next = await drain(r.tts({ text: 'Again.', voice: 'agent' }));
    expect(next.error).toBeUndefined();
    expect(wire.hits).toBe(2);
    expect(wire.sockets.length).toBe(2);
    expect(connectsTo(wire)).toBe(2);
  });

  it('chat: a break out of an Anthropic SSE stream', async () => {
    const wire = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
      res.write(
        event('message_start', {
          type: 'message_start',
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            model: 'c',
            content: [],
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        }) +
          event('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }) +
          event('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'Hello' },
          }),
      );
    });
    const r = router({
      providers: {
        a: { kind: 'anthropic', baseUrl: wire.url, apiKey: 'sk-ant-test', chat: { models: { fast: 'c' } } },
      },
      routes: { chat: { providers: ['a'] } },
    } as RouterConfig);
    const texts: string[] = [];
    for await (const event of r.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast' })) {
      if (event.type === 'text-delta') texts.push(event.text);
      break;
    }
    expect(texts).toEqual(['Hello']);
    await clientSocketClosed(wire);
    expect(connectsTo(wire)).toBe(1);
    expect(wire.hits).toBe(1);
  });

  it('the retry of a reused socket reset, aborted while its answer streams', async () => {
    // Request 1 is answered and its socket pooled; request 2 is reset on that socket as it
    // arrives (a server's idle close), so the transport retries it on a fresh connection, where
    // request 3 gets one chunk and the answer stays open.
    const wire = await httpServer(async (req, res, n) => {
      if (n === 2) {
        req.socket.destroy();
        return;
      }
      await readBody(req);
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      if (n === 1) res.end(AUDIO);
      else res.write(AUDIO.subarray(0, 960));
    });
    const r = router(ttsConfig(wire.url));
    expect((await drain(r.tts({ text: 'Hello.', voice: 'agent' }))).error).toBeUndefined();
    // undici returns a socket to its pool one turn of the event loop after the answer ended.
    await new Promise((resolve) => setImmediate(resolve));
    const controller = new AbortController();
    let chunks = 0;
    const { error } = await drain(
      (async function* () {
        for await (const chunk of r.tts({ text: 'Again.', voice: 'agent', signal: controller.signal })) {
          chunks++;
          yield chunk;
          controller.abort();
        }
      })(),
    );
    expect([chunks, AbortError.isInstance(error), wire.hits]).toEqual([1, true, 3]);
    // The retry's connection was the second one opened; none follows its close.
    const retried = connected.filter((c) => c.port === portOf(wire))[1];
    expect(retried?.port, 'the retry connected').toBe(portOf(wire));
    await retried!.closed;
    expect(connectsTo(wire)).toBe(2);
  });

  it('hedge: the losing attempt closes its connection and none is opened again to its provider', async () => {
    // The first choice sends headers and nothing more; the hedge (after 10 ms) answers at once.
    const slow = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.flushHeaders();
    });
    const fast = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(AUDIO);
    });
    const config = ttsConfig(slow.url, fast.url);
    (config.routes.tts as Record<string, unknown>).hedge = { after: 10 };
    const r = router(config);
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(AUDIO);
    await clientSocketClosed(slow);
    expect(connectsTo(slow)).toBe(1);
    expect(slow.hits).toBe(1);
  });
});
