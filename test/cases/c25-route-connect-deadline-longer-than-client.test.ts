/**
 * C25 at connect: a route's `connectTimeoutMs` longer than the HTTP client's own connect timeout
 * (undici's connector: 10 s) takes effect, over HTTP and WebSocket. Before, the client's 10 s
 * cut the connection first and the error still read "within 10500 ms (connectTimeoutMs)". The
 * server is a TCP listener (node:net) that takes the connection and never answers the TLS
 * handshake of an https:// / wss:// base URL.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AllProvidersFailedError, type RouterConfig, TimeoutError } from '../../src/index.js';
import { sendCartesiaContext } from './wire/cartesia-context.js';
import { answerChat, drain, httpServer, pcmSignal, readBody, router, wsServer } from './wire/servers.js';

/** Longer than undici's connect timeout (10 s), as little as can tell them apart. */
const CONNECT_MS = 10_500;

const servers: Array<() => void> = [];
afterEach(() => {
  for (const close of servers.splice(0)) close();
});

/** A TCP listener that accepts every connection and never writes (a TLS handshake never answered). */
async function silentTls(): Promise<string> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  const { port } = server.address() as { port: number };
  return `https://127.0.0.1:${port}`;
}

/**
 * A provider `w` of the capability that answers at once, on a route `warm` of its own: one call
 * to it first loads voxroute's transport code, so that the timed call starts its connect at once
 * (the first call of a process waits for undici to load, after its deadline started).
 */
async function warmProvider(call: 'chat' | 'tts') {
  if (call === 'chat') {
    const w = await httpServer(async (req, res) => {
      await readBody(req);
      answerChat(res, 'Hi.');
    });
    return { kind: 'openai-compatible' as const, baseUrl: w.url, chat: { models: { fast: 'm' } } };
  }
  const w = await wsServer((ws) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { context_id?: string; transcript?: string };
      if (m.transcript?.trim()) sendCartesiaContext(ws, m.context_id, pcmSignal(2400, 24_000));
    });
  });
  return {
    kind: 'cartesia' as const,
    baseUrl: w.url,
    apiKey: 'sk_car_warm',
    tts: { voices: { agent: 'v' }, transport: 'websocket' as const },
  };
}

/** How the call ended: its attempt's error and the ms it took (after a call to `w` on route `warm`). */
async function connectFailure(config: RouterConfig, call: 'chat' | 'tts') {
  const r = router({
    providers: { ...config.providers, w: await warmProvider(call) },
    routes: { ...config.routes, warm: { capability: call, providers: ['w'] } },
  });
  const warm =
    call === 'chat'
      ? r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi.' }], route: 'warm' })
      : r.tts({ text: 'Hello.', voice: 'agent', route: 'warm' });
  expect((await drain(warm as AsyncIterable<unknown>)).error).toBeUndefined();
  const started = performance.now();
  const stream =
    call === 'chat'
      ? r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi.' }] })
      : r.tts({ text: 'Hello.', voice: 'agent' });
  const { error } = await drain(stream as AsyncIterable<unknown>);
  const elapsed = performance.now() - started;
  expect(AllProvidersFailedError.isInstance(error)).toBe(true);
  return {
    failure: (error as AllProvidersFailedError).attempts[0]!.error,
    elapsed,
  };
}

describe("C25: a route's connect deadline longer than the HTTP client's own connect timeout applies", () => {
  it('C25: over HTTP (chat) and WebSocket (Cartesia TTS), the connection is given up at the route’s 10.5 s, by voxroute’s own deadline', async () => {
    const route = {
      strategy: 'priority' as const,
      connectTimeoutMs: CONNECT_MS,
      firstChunkTimeoutMs: false as const,
    };
    const [http, webSocket] = await Promise.all([
      silentTls().then((url) =>
        connectFailure(
          {
            providers: {
              a: {
                kind: 'openai-compatible',
                baseUrl: url,
                chat: { models: { fast: 'm' } },
              },
            },
            routes: { chat: { providers: ['a'], ...route } },
          },
          'chat',
        ),
      ),
      silentTls().then((url) =>
        connectFailure(
          {
            providers: {
              a: {
                kind: 'cartesia',
                baseUrl: url,
                apiKey: 'sk_car_case',
                tts: { voices: { agent: 'v' }, transport: 'websocket' },
              },
            },
            routes: { tts: { providers: ['a'], ...route } },
          },
          'tts',
        ),
      ),
    ]);
    for (const { failure, elapsed } of [http, webSocket]) {
      expect(TimeoutError.isInstance(failure)).toBe(true);
      if (!TimeoutError.isInstance(failure)) return;
      expect([failure.phase, failure.timeoutMs, failure.setting]).toEqual([
        'connect',
        CONNECT_MS,
        'connectTimeoutMs',
      ]);
      expect(failure.message).toBe(
        `No connection from provider 'a' within ${CONNECT_MS} ms (connectTimeoutMs)`,
      );
      // voxroute's own deadline, not the client's connect timeout under its name.
      expect(failure.cause).toBeUndefined();
      expect(elapsed).toBeGreaterThanOrEqual(CONNECT_MS - 50);
    }
  }, 40_000);
});
