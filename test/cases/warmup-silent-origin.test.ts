/**
 * `router.warmup()` gives an origin up at the routes' `connectTimeoutMs` also when the origin
 * takes the TCP connection but never answers the warm-up request: before, it waited for the
 * exchange's own 10 s deadline. A real socket server that accepts and stays silent; the
 * router's clock is a fake one, moved by the test once the request has arrived.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { FakeClock } from '../transport/fake-clock.js';

let server: Server | undefined;
let router: Router | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  await router?.close();
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.close();
  router = undefined;
  server = undefined;
});

/** A server that accepts connections and never writes a byte; yields each request's first bytes. */
async function silentServer(): Promise<{
  origin: string;
  firstRequest: Promise<{ text: string; closed: Promise<unknown> }>;
}> {
  let received!: (value: { text: string; closed: Promise<unknown> }) => void;
  const firstRequest = new Promise<{ text: string; closed: Promise<unknown> }>((resolve) => {
    received = resolve;
  });
  server = createServer((socket) => {
    sockets.push(socket);
    const closed = once(socket, 'close');
    socket.once('data', (data) => received({ text: String(data), closed }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, firstRequest };
}

describe('warmup() on an origin that accepts TCP but never answers', () => {
  it("resolves at the routes' connectTimeoutMs and closes the connection", async () => {
    const { origin, firstRequest } = await silentServer();
    const clock = new FakeClock();
    router = createRouter(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${origin}/v1`, chat: { models: { f: 'm' } } },
        },
        routes: { chat: { providers: ['a'], connectTimeoutMs: 500 } },
      },
      { clock },
    );
    let settled = false;
    const warming = router.warmup().then(() => {
      settled = true;
    });
    const request = await firstRequest;
    expect(request.text.startsWith('OPTIONS / HTTP/1.1\r\n')).toBe(true);
    clock.advance(499);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    await warming;
    expect(settled).toBe(true);
    // Given up: the warm-up's connection is closed, not left waiting.
    await request.closed;
  });
});
