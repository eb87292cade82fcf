/**
 * The HTTP transport's own Agent cuts a TLS handshake still pending when the exchange it was
 * opened for is aborted: the right one among several to the same origin, also when the request
 * body is streamed (undici opens that connection a microtask after the dispatch).
 * The server accepts TCP, reads the ClientHello and never answers. Each close must come well
 * before undici's own connect timeout (10 s) would have ended the handshake.
 */
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';

/** A connection of the hung server: its first bytes, and whether (and when) it closed. */
interface Accepted {
  hello: Promise<Buffer>;
  /** Resolves with `performance.now()` at the server socket's 'close' event. */
  closed: Promise<number>;
  isClosed: boolean;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Time from the abort (or close) to the server seeing the socket close, at most (ms). */
const CLOSE_BOUND_MS = 2000;

async function hungTls(): Promise<{ origin: string; next(): Promise<Accepted> }> {
  const sockets = new Set<net.Socket>();
  const queue: Accepted[] = [];
  const waiting: Array<(a: Accepted) => void> = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    const accepted: Accepted = {
      hello: new Promise((resolve) => socket.once('data', resolve)),
      closed: new Promise((resolve) =>
        socket.once('close', () => {
          accepted.isClosed = true;
          sockets.delete(socket);
          resolve(performance.now());
        }),
      ),
      isClosed: false,
    };
    socket.resume();
    const waiter = waiting.shift();
    if (waiter) waiter(accepted);
    else queue.push(accepted);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: () => {
      const ready = queue.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function transport(): HttpTransport {
  const t = createHttpTransport();
  cleanups.push(() => t.close());
  return t;
}

async function* streamed(signal: AbortSignal): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([1, 2, 3]);
  await once(signal, 'abort');
}

describe('a pending TLS handshake of the own Agent', { timeout: 20_000 }, () => {
  it('an abort closes the connection of its own exchange, not that of another to the same origin', async () => {
    const server = await hungTls();
    const t = transport();
    const first = new AbortController();
    const second = new AbortController();
    const a = t.request({
      provider: 'p',
      method: 'POST',
      url: `${server.origin}/a`,
      body: 'a',
      signal: first.signal,
    });
    const connA = await server.next();
    await connA.hello;
    const b = t.request({
      provider: 'p',
      method: 'POST',
      url: `${server.origin}/b`,
      body: 'b',
      signal: second.signal,
    });
    const connB = await server.next();
    await connB.hello;

    const abortedB = performance.now();
    second.abort();
    const errorB = await b.catch((e: unknown) => e);
    expect(AbortError.isInstance(errorB)).toBe(true);
    expect((await connB.closed) - abortedB).toBeLessThan(CLOSE_BOUND_MS);
    expect(connA.isClosed).toBe(false);

    const abortedA = performance.now();
    first.abort();
    const errorA = await a.catch((e: unknown) => e);
    expect(AbortError.isInstance(errorA)).toBe(true);
    expect((await connA.closed) - abortedA).toBeLessThan(CLOSE_BOUND_MS);
  });

  it('a streamed request body: the abort closes its connection', async () => {
    const server = await hungTls();
    const t = transport();
    const controller = new AbortController();
    const request = t.request({
      provider: 'p',
      method: 'POST',
      url: `${server.origin}/upload`,
      body: streamed(controller.signal),
      signal: controller.signal,
    });
    const conn = await server.next();
    expect((await conn.hello)[0]).toBe(0x16);
    const aborted = performance.now();
    controller.abort();
    const error = await request.catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((await conn.closed) - aborted).toBeLessThan(CLOSE_BOUND_MS);
  });

  it('close() closes a connection still in its handshake', async () => {
    const server = await hungTls();
    const t = createHttpTransport();
    const request = t.request({ provider: 'p', method: 'POST', url: `${server.origin}/a`, body: 'a' });
    const conn = await server.next();
    await conn.hello;
    const closing = performance.now();
    await t.close();
    const error = await request.catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((await conn.closed) - closing).toBeLessThan(CLOSE_BOUND_MS);
  });
});
