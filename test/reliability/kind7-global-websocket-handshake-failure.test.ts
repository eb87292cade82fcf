/**
 * Kind 7, runtime: the runtime's global WebSocket (the documented msw mode). Node 22's fires
 * only `error` on a failed handshake, never `close` (readyState stays CONNECTING); the connect
 * must fail at once as a retryable connect failure, not wait for its connect deadline and
 * report a timeout. Node 24's fires `error` then `close`: reported once. The server is a raw
 * HTTP server that answers the upgrade with 401 on its own; the other case is a refused port.
 * The connect deadline runs on a clock that never moves, so only the handshake failure itself
 * can end the connect. A fake WebSocket that fires only `error` covers every runtime.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import { type SocketLike, WebSocketSession } from '../../src/transport/websocket-session.js';
import { drain, router } from '../cases/wire/servers.js';
import { FakeClock } from '../transport/fake-clock.js';

const KEY = 'ck-QUERYSECRET-1234567890';
const major = Number(process.versions.node.split('.')[0]);
/** Node 20 has no global WebSocket (only behind --experimental-websocket); Node 22+ has one. */
const globalWebSocket =
  major >= 22 && typeof globalThis.WebSocket === 'function' ? globalThis.WebSocket : undefined;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw HTTP server that refuses every WebSocket upgrade with 401; counts the upgrades. */
async function refusingServer(): Promise<{ port: number; upgrades: string[] }> {
  const upgrades: string[] = [];
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Socket) => {
    upgrades.push(req.url ?? '');
    socket.end(
      'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":"invalid key"}',
    );
  });
  servers.push(server);
  return { port: await listen(server), upgrades };
}

/** A port nothing listens on (a server's, closed again). */
async function refusedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failure = (port: number) =>
  `WebSocket to provider 'c' at ws://127.0.0.1:${port}/listen?api_key=[redacted] failed: closed with code 1006 before it opened (no HTTP status: a refused upgrade, e.g. 401, cannot be told from a network failure)`;

async function connectError(port: number) {
  const clock = new FakeClock();
  const transport = createWebSocketTransport({ WebSocket: globalWebSocket!, clock });
  const error = await transport
    .connect({
      provider: 'c',
      url: `ws://127.0.0.1:${port}/listen?api_key=${KEY}`,
      deadlines: { connectMs: 2000 },
    })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  // The connect deadline was armed and cleared; nothing waits on the clock.
  const pending = clock.pending;
  // Resolves only once every session has closed: a socket that never fires `close` must not hold it.
  await transport.close?.();
  return { error: error as ProviderError, pending };
}

const shape = (e: ProviderError) => [e.name, e.status, e.retryable, e.isAuthError, e.message];

describe.skipIf(!globalWebSocket)(
  'kind 7: a failed handshake on the global WebSocket (Node 22+; Node 20 has none without a flag)',
  () => {
    it('an upgrade answered 401: a retryable connect failure at once, key redacted, no timeout', async () => {
      const { port, upgrades } = await refusingServer();
      const { error, pending } = await connectError(port);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(shape(error)).toEqual(['ProviderError', undefined, true, false, failure(port)]);
      expect(pending).toBe(0);
      // Node 24's WebSocket (its fetch) sends a handshake answered 401 once more; Node 22's does not.
      expect([...new Set(upgrades)]).toEqual([`/listen?api_key=${KEY}`]);
    });

    it('a refused port: a retryable connect failure at once, no timeout', async () => {
      const port = await refusedPort();
      const { error, pending } = await connectError(port);
      expect(shape(error)).toEqual(['ProviderError', undefined, true, false, failure(port)]);
      expect(pending).toBe(0);
    });

    it('through the router (Cartesia TTS over the global WebSocket): the attempt fails with the connect failure, not TimeoutError', async () => {
      const { port, upgrades } = await refusingServer();
      const r = router(
        {
          providers: {
            c: {
              kind: 'cartesia',
              baseUrl: `http://127.0.0.1:${port}`,
              apiKey: KEY,
              tts: { voices: { v: 'a' }, transport: 'websocket' },
            },
          },
          // A connect deadline far beyond the test's own timeout: only the failure can end it.
          routes: { tts: { providers: ['c'], connectTimeoutMs: 60_000 } },
        },
        { WebSocket: globalWebSocket! },
      );
      async function* text() {
        yield 'Hello.';
      }
      const { items, error } = await drain(r.tts({ text: text(), voice: 'v' }));
      expect(items).toEqual([]);
      const attempts = (error as { attempts: Array<{ error: ProviderError }> }).attempts;
      expect((error as Error).name).toBe('AllProvidersFailedError');
      expect(attempts.map((a) => [a.error.name, a.error.status, a.error.retryable])).toEqual([
        ['ProviderError', undefined, true],
      ]);
      expect(String((error as Error).message) + attempts[0]!.error.message).not.toContain('QUERYSECRET');
      expect(upgrades.length).toBeGreaterThanOrEqual(1);
    });
  },
);

/** A WebSocket that fires the events the test asks for, and records close() calls. */
class FakeSocket implements SocketLike {
  binaryType = 'blob';
  readyState = 0;
  bufferedAmount = 0;
  closes = 0;
  readonly #listeners = new Map<string, Set<(event: never) => void>>();
  send(): void {}
  close(): void {
    this.closes++;
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: (event: never) => void): void {
    this.#listeners.get(type)?.delete(listener);
  }
  listening(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }
  fire(type: string, event: object = {}): void {
    for (const listener of [...(this.#listeners.get(type) ?? [])]) listener(event as never);
  }
}

function session(socket: FakeSocket, clock: FakeClock) {
  return new WebSocketSession({
    socket,
    provider: 'c',
    shownUrl: 'ws://h/listen?api_key=[redacted]',
    secrets: {},
    clock,
    connectMs: 2000,
    idleMs: 0,
    closeTimeoutMs: 5000,
    handshake: {},
  });
}

describe('kind 7: an `error` before `open` (a fake WebSocket)', () => {
  it('fires only `error`: `opened` rejects at once, `closed` resolves 1006, no timer left', async () => {
    const clock = new FakeClock();
    const socket = new FakeSocket();
    const s = session(socket, clock);
    socket.fire('error');
    const error = (await s.opened.then(
      () => undefined,
      (e: unknown) => e,
    )) as ProviderError;
    expect([error.name, error.status, error.retryable, error.isAuthError]).toEqual([
      'ProviderError',
      undefined,
      true,
      false,
    ]);
    expect(error.message).toBe(
      "WebSocket to provider 'c' at ws://h/listen?api_key=[redacted] failed: closed with code 1006 before it opened (no HTTP status: a refused upgrade, e.g. 401, cannot be told from a network failure)",
    );
    expect(await s.closed).toEqual({ code: 1006, reason: '', wasClean: false });
    expect(clock.pending).toBe(0);
    expect(socket.closes).toBe(1);
    expect(socket.listening()).toBe(0);
  });

  it('`error` then `close` (Node 24, undici): reported once, the later close changes nothing', async () => {
    const clock = new FakeClock();
    const socket = new FakeSocket();
    const s = session(socket, clock);
    const seen: unknown[] = [];
    s.opened.catch((e: unknown) => seen.push(e));
    socket.fire('error');
    socket.fire('close', { code: 1011, reason: 'late', wasClean: false });
    await s.closed.then(() => undefined);
    await Promise.resolve();
    expect(seen).toHaveLength(1);
    expect((seen[0] as ProviderError).status).toBe(undefined);
    expect(await s.closed).toEqual({ code: 1006, reason: '', wasClean: false });
    const rest = s.messages()[Symbol.asyncIterator]();
    await expect(rest.next()).rejects.toBe(seen[0]);
  });

  it('`error` after `open` waits for the `close`, which carries the outcome', async () => {
    const clock = new FakeClock();
    const socket = new FakeSocket();
    const s = session(socket, clock);
    socket.readyState = 1;
    socket.fire('open');
    await s.opened;
    socket.fire('error');
    expect(s.isOpen).toBe(true);
    socket.fire('close', { code: 1011, reason: 'boom', wasClean: true });
    const rest = s.messages()[Symbol.asyncIterator]();
    const error = (await rest.next().then(
      () => undefined,
      (e: unknown) => e,
    )) as ProviderError;
    expect([error.name, error.status]).toEqual(['ProviderError', 1011]);
    expect(await s.closed).toEqual({ code: 1011, reason: 'boom', wasClean: true });
  });
});
