import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ProviderError, TimeoutError } from '../../src/errors/index.js';
import { isRouterStall } from '../../src/internal/stall.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import type { WebSocketConnection } from '../../src/transport/websocket-types.js';
import { FakeClock } from './fake-clock.js';
import {
  drain,
  rejection,
  type ScriptedWsProvider,
  type SilentServer,
  scriptedWsProvider,
  socketClosed,
  startDeafServer,
  startSilentServer,
  turn,
} from './websocket-helpers.js';

const KEY = 'sk-live-0123456789abcdef';
const HEADER_KEY = 'tok-9876543210fedcba';

let server: MockServer | undefined;
let silent: SilentServer | undefined;
const open: WebSocketConnection[] = [];

afterEach(async () => {
  for (const conn of open.splice(0)) conn.close();
  await server?.close();
  await silent?.close();
  server = undefined;
  silent = undefined;
});

async function serve(provider: ScriptedWsProvider): Promise<string> {
  server = await startMockServer({ provider });
  return server.url.replace(/^http/, 'ws');
}

/** A connection to `provider` with a 1,000 ms idle deadline on a fake clock, and its message iterator. */
async function idleConnection(provider: ScriptedWsProvider) {
  const clock = new FakeClock();
  const conn = await connect(
    await serve(provider),
    { deadlines: { idleMs: 1000 } },
    createWebSocketTransport({ clock }),
  );
  return { clock, conn, iterator: conn.messages()[Symbol.asyncIterator]() };
}

/** `promise` watched: `outcome` is 'pending' until it settles, then its value or its error (also `settled`'s). */
function watch(promise: Promise<unknown>): { outcome: unknown; settled: Promise<unknown> } {
  const watched: { outcome: unknown; settled: Promise<unknown> } = { outcome: 'pending', settled: promise };
  watched.settled = promise.then(
    (value) => (watched.outcome = value),
    (error: unknown) => (watched.outcome = error),
  );
  return watched;
}

async function connect(
  url: string,
  extra: Partial<Parameters<ReturnType<typeof createWebSocketTransport>['connect']>[0]> = {},
  transport = createWebSocketTransport(),
): Promise<WebSocketConnection> {
  const conn = await transport.connect({ provider: 'prov', url, ...extra });
  open.push(conn);
  return conn;
}

describe('createWebSocketTransport over loopback sockets', () => {
  it('round-trips text and binary frames, and ends cleanly on close 1000', async () => {
    const provider = scriptedWsProvider();
    const base = await serve(provider);
    const conn = await connect(`${base}/echo?model=m1`, { headers: { 'x-custom': 'yes' } });
    expect(conn.isOpen).toBe(true);
    expect(conn.send('hello')).toBe(true);
    expect(conn.send(new Uint8Array([1, 2, 3, 255]))).toBe(true);
    const messages = conn.messages()[Symbol.asyncIterator]();
    expect(await messages.next()).toEqual({ value: { type: 'text', data: 'hello' }, done: false });
    const second = await messages.next();
    expect(second.done).toBe(false);
    expect(second.value).toEqual({ type: 'binary', data: new Uint8Array([1, 2, 3, 255]) });
    expect((second.value as { data: unknown }).data).toBeInstanceOf(Uint8Array);
    const session = await provider.session(0);
    expect(session.received).toEqual(['hello', new Uint8Array([1, 2, 3, 255])]);
    expect(new URL(session.request.url).pathname).toBe('/echo');
    expect(new URL(session.request.url).searchParams.get('model')).toBe('m1');
    expect(session.request.headers.get('x-custom')).toBe('yes');
    session.socket.close(1000, 'bye');
    expect(await messages.next()).toEqual({ value: undefined, done: true });
    expect(await conn.closed).toEqual({ code: 1000, reason: 'bye', wasClean: true });
    expect(conn.isOpen).toBe(false);
  });

  it('buffers messages that arrive before the caller iterates', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('one');
      s.socket.send(new Uint8Array([7]));
      s.socket.send('three');
      s.socket.close(1000);
    });
    const conn = await connect(await serve(provider));
    expect((await conn.closed).code).toBe(1000);
    const { items, error } = await drain(conn.messages());
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'text', data: 'one' },
      { type: 'binary', data: new Uint8Array([7]) },
      { type: 'text', data: 'three' },
    ]);
  });

  it('ends normally on a close frame without a code (1005)', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('last');
      s.socket.close(undefined as unknown as number);
    });
    const conn = await connect(await serve(provider));
    const { items, error } = await drain(conn.messages());
    expect(error).toBeUndefined();
    expect(items).toEqual([{ type: 'text', data: 'last' }]);
    expect((await conn.closed).code).toBe(1000);
  });

  it('C13: close 1011 after a message -> the message, then ProviderError status 1011 retryable; a later send returns false', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('partial');
      s.socket.close(1011, 'NET-0001 did not receive audio data within the timeout window');
    });
    const conn = await connect(await serve(provider));
    const { items, error } = await drain(conn.messages());
    expect(items).toEqual([{ type: 'text', data: 'partial' }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect(e.status).toBe(1011);
    expect(e.retryable).toBe(true);
    expect(e.provider).toBe('prov');
    expect(e.isAuthError).toBe(false);
    expect(e.message).toBe(
      "Provider 'prov' closed the WebSocket with code 1011 (Internal Error): NET-0001 did not receive audio data within the timeout window",
    );
    expect(conn.isOpen).toBe(false);
    expect(conn.send('late audio')).toBe(false);
    expect(conn.send(new Uint8Array([1, 2]))).toBe(false);
    expect(conn.send('late')).toBe(false);
    expect((await provider.session(0)).received).toEqual([]);
  });

  it('C18: close 1008 "invalid api key" -> ProviderError not retryable, auth error, reason kept, no key in the message', async () => {
    const provider = scriptedWsProvider((s) => s.socket.close(1008, `invalid api key ${HEADER_KEY}`));
    const base = await serve(provider);
    const conn = await connect(`${base}/v1/tts?api_key=${KEY}`, {
      headers: { Authorization: `Token ${HEADER_KEY}` },
    });
    const { items, error } = await drain(conn.messages());
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect(e.status).toBe(1008);
    expect(e.retryable).toBe(false);
    expect(e.isAuthError).toBe(true);
    expect(e.message).toContain('invalid api key');
    expect(e.message).not.toContain(HEADER_KEY);
    expect(e.message).not.toContain(KEY);
    expect((await provider.session(0)).request.headers.get('authorization')).toBe(`Token ${HEADER_KEY}`);
  });

  it('a key sent as a subprotocol (Deepgram style) never reaches an error message', async () => {
    const provider = scriptedWsProvider((s) => s.socket.close(4001, `unauthorized: ${KEY}`));
    const conn = await connect(await serve(provider), { protocols: ['token', KEY] });
    const { error } = await drain(conn.messages());
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(4001);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toBe(
      "Provider 'prov' closed the WebSocket with code 4001: unauthorized: [redacted]",
    );
    expect((await provider.session(0)).request.headers.get('sec-websocket-protocol')).toBe(`token, ${KEY}`);
  });

  it('terminate (no close frame) -> ProviderError status 1006, retryable', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('a');
      s.socket.terminate();
    });
    const conn = await connect(await serve(provider));
    const { items, error } = await drain(conn.messages());
    expect(items).toEqual([{ type: 'text', data: 'a' }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(1006);
    expect((error as ProviderError).retryable).toBe(true);
    expect(await conn.closed).toEqual({ code: 1006, reason: '', wasClean: false });
  });

  it('a refused upgrade (401) rejects connect with ProviderError status 401, not retryable, sent once, no key in the message', async () => {
    const provider = scriptedWsProvider(undefined, () => ({
      reject: { status: 401, body: '{"err_msg":"bad key"}' },
    }));
    const base = await serve(provider);
    const error = await rejection(
      createWebSocketTransport().connect({
        provider: 'prov',
        url: `${base}/v1/listen?token=${KEY}&model=nova`,
        headers: { authorization: `Token ${HEADER_KEY}` },
      }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect(e.status).toBe(401);
    expect(e.retryable).toBe(false);
    expect(e.isAuthError).toBe(true);
    expect(e.message).toBe(
      `Provider 'prov' refused the WebSocket upgrade to ${base}/v1/listen?token=[redacted]&model=nova: HTTP 401`,
    );
    expect(e.message).not.toContain(KEY);
    expect(provider.upgrades).toHaveLength(1);
  });

  it('a refused upgrade (429 with Retry-After) is retryable and keeps retryAfterMs', async () => {
    const provider: ScriptedWsProvider = scriptedWsProvider(undefined, () => ({ reject: { status: 429 } }));
    const base = await serve(provider);
    // The mock's reject has no headers: check Retry-After through a raw server below instead.
    const error = await rejection(createWebSocketTransport().connect({ provider: 'prov', url: base }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(429);
    expect((error as ProviderError).retryable).toBe(true);
  });

  it('a refused upgrade with Retry-After: 3 gives retryAfterMs 3000', async () => {
    const { createServer } = await import('node:http');
    const raw = createServer();
    raw.on('upgrade', (_req, socket) => {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as { port: number };
    try {
      const error = await rejection(
        createWebSocketTransport().connect({ provider: 'prov', url: `ws://127.0.0.1:${port}/` }),
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as ProviderError).status).toBe(503);
      expect((error as ProviderError).retryable).toBe(true);
      expect((error as ProviderError).retryAfterMs).toBe(3000);
    } finally {
      raw.close();
    }
  });

  it('an upgrade to a mock without `upgrade` gets 404: not retryable', async () => {
    server = await startMockServer({ provider: { requests: [], handle: async () => new Response('x') } });
    const error = await rejection(
      createWebSocketTransport().connect({ provider: 'prov', url: server.url.replace('http', 'ws') }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(404);
    expect((error as ProviderError).retryable).toBe(false);
  });

  it('a refused TCP connection -> ProviderError without status, retryable', async () => {
    silent = await startSilentServer();
    const port = silent.port;
    await silent.close();
    silent = undefined;
    const error = await rejection(
      createWebSocketTransport().connect({ provider: 'prov', url: `ws://127.0.0.1:${port}/?key=${KEY}` }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBeUndefined();
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as ProviderError).message).toContain('ECONNREFUSED');
    expect((error as ProviderError).message).not.toContain(KEY);
  });

  it('an invalid URL -> ProviderError not retryable, no key in the message', async () => {
    const error = await rejection(
      createWebSocketTransport().connect({ provider: 'prov', url: `ftp://example.test/?api_key=${KEY}` }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toContain('ftp://example.test/?api_key=[redacted]');
    expect((error as ProviderError).message).not.toContain(KEY);
  });

  it('connect deadline: a server that never answers the handshake -> TimeoutError connect, socket closed', async () => {
    silent = await startSilentServer();
    const clock = new FakeClock();
    const pending = createWebSocketTransport({ clock }).connect({
      provider: 'prov',
      url: `ws://127.0.0.1:${silent.port}/`,
      deadlines: { connectMs: 1500 },
    });
    const socket = await silent.nextHandshake();
    clock.advance(1499);
    await turn();
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await turn();
    expect(settled).toBe(false);
    clock.advance(1);
    const error = await rejection(pending);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).phase).toBe('connect');
    expect((error as TimeoutError).timeoutMs).toBe(1500);
    expect((error as TimeoutError).provider).toBe('prov');
    expect((error as TimeoutError).retryable).toBe(true);
    await socketClosed(socket);
    expect(clock.pending).toBe(0);
  });

  it('C15: idle deadline on a fake clock -> TimeoutError idle after the last message, and the socket is closed', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('chunk-1');
      s.socket.send('chunk-2');
      s.socket.send('chunk-3');
    });
    const { clock, conn, iterator } = await idleConnection(provider);
    const got: unknown[] = [];
    for (let i = 0; i < 3; i++) got.push((await iterator.next()).value);
    expect(got).toEqual([1, 2, 3].map((n) => ({ type: 'text', data: `chunk-${n}` })));
    const next = watch(iterator.next());
    clock.advance(999);
    await turn();
    expect(next.outcome).toBe('pending');
    clock.advance(1);
    const outcome = await next.settled;
    expect(TimeoutError.isInstance(outcome)).toBe(true);
    expect((outcome as TimeoutError).phase).toBe('idle');
    expect((outcome as TimeoutError).timeoutMs).toBe(1000);
    expect((await (await provider.session(0)).closed).code).toBe(1000);
    expect(conn.send('x')).toBe(false);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it("router's own stall: an idle deadline fired late gets one more turn, then its TimeoutError is marked as the router's stall (not the provider's)", async () => {
    const provider = scriptedWsProvider((s) => s.socket.send('chunk-1'));
    const { clock, iterator } = await idleConnection(provider);
    expect((await iterator.next()).value).toEqual({ type: 'text', data: 'chunk-1' });
    const next = watch(iterator.next());
    // The loop was blocked 1,200 ms: the timer fires 200 ms late and takes one more timer
    // turn (a 0 ms timer: I/O waiting is read first) before it ends the stream.
    const timers = clock.created;
    clock.block(1200);
    clock.advance(0);
    const outcome = await next.settled;
    // The extra turn, then the close handshake's timer (the on-time case below has only that).
    expect(clock.created - timers).toBe(2);
    expect(TimeoutError.isInstance(outcome)).toBe(true);
    expect((outcome as TimeoutError).phase).toBe('idle');
    expect(isRouterStall(outcome)).toBe(true);
  });

  it('idle deadline fired on time: not marked as a router stall', async () => {
    const provider = scriptedWsProvider((s) => s.socket.send('chunk-1'));
    const { clock, iterator } = await idleConnection(provider);
    await iterator.next();
    const next = watch(iterator.next());
    const timers = clock.created;
    clock.advance(1000);
    const outcome = await next.settled;
    // Only the close handshake's timer: no extra turn.
    expect(clock.created - timers).toBe(1);
    expect(TimeoutError.isInstance(outcome)).toBe(true);
    expect(isRouterStall(outcome)).toBe(false);
  });

  it('idle deadline: each message re-arms it, and setIdleMs(0) pauses it', async () => {
    const provider = scriptedWsProvider();
    const { clock, conn, iterator } = await idleConnection(provider);
    const first = watch(iterator.next());
    clock.advance(800);
    conn.send('ping');
    expect(await first.settled).toEqual({ value: { type: 'text', data: 'ping' }, done: false });
    const next = watch(iterator.next());
    clock.advance(800);
    await turn();
    expect(next.outcome).toBe('pending');
    conn.setIdleMs?.(0);
    clock.advance(10_000);
    await turn();
    expect(next.outcome).toBe('pending');
    expect(clock.pending).toBe(0);
    conn.setIdleMs?.(500);
    clock.advance(500);
    const outcome = await next.settled;
    expect(TimeoutError.isInstance(outcome)).toBe(true);
    expect((outcome as TimeoutError).timeoutMs).toBe(500);
  });

  it('abort while open: messages() throws AbortError and the server sees close 1000', async () => {
    const provider = scriptedWsProvider((s) => s.socket.send('hi'));
    const controller = new AbortController();
    const conn = await connect(await serve(provider), { signal: controller.signal });
    const iterator = conn.messages()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text', data: 'hi' });
    const next = rejection(iterator.next());
    controller.abort();
    const error = await next;
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as AbortError).name).toBe('AbortError');
    expect(conn.isOpen).toBe(false);
    expect((await (await provider.session(0)).closed).code).toBe(1000);
    expect(conn.send('late')).toBe(false);
  });

  it('abort during the handshake rejects connect with AbortError and drops the connection', async () => {
    silent = await startSilentServer();
    const controller = new AbortController();
    const pending = createWebSocketTransport().connect({
      provider: 'prov',
      url: `ws://127.0.0.1:${silent.port}/`,
      signal: controller.signal,
    });
    const socket = await silent.nextHandshake();
    controller.abort();
    const error = await rejection(pending);
    expect(AbortError.isInstance(error)).toBe(true);
    await socketClosed(socket);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('an already-aborted signal rejects at once with AbortError', async () => {
    const error = await rejection(
      createWebSocketTransport().connect({
        provider: 'prov',
        url: 'ws://127.0.0.1:9/',
        signal: AbortSignal.abort(),
      }),
    );
    expect(AbortError.isInstance(error)).toBe(true);
  });

  it('C13: close() then send returns false and does not throw; close() is idempotent', async () => {
    const provider = scriptedWsProvider();
    const conn = await connect(await serve(provider));
    conn.close();
    conn.close();
    expect(conn.isOpen).toBe(false);
    expect(conn.send('x')).toBe(false);
    expect(conn.send(new Uint8Array(4))).toBe(false);
    expect(await drain(conn.messages())).toEqual({ items: [], error: undefined });
    expect((await conn.closed).code).toBe(1000);
    expect((await (await provider.session(0)).closed).code).toBe(1000);
    expect((await provider.session(0)).received).toEqual([]);
  });

  it('a close handshake the server never answers is cut after closeTimeoutMs: closed resolves 1006', async () => {
    silent = await startDeafServer();
    const clock = new FakeClock();
    const transport = createWebSocketTransport({ clock, closeTimeoutMs: 3000 });
    const conn = await transport.connect({ provider: 'prov', url: `ws://127.0.0.1:${silent.port}/` });
    const socket = await silent.nextHandshake();
    let closed: unknown = 'pending';
    conn.closed.then((c) => (closed = c));
    conn.close();
    expect(await drain(conn.messages())).toEqual({ items: [], error: undefined });
    clock.advance(2999);
    await turn();
    expect(closed).toBe('pending');
    expect(socket.closed).toBe(false);
    clock.advance(1);
    expect(await conn.closed).toEqual({ code: 1006, reason: '', wasClean: false });
    await socketClosed(socket);
    expect(clock.pending).toBe(0);
  });

  it('close(code, reason) reaches the server', async () => {
    const provider = scriptedWsProvider();
    const conn = await connect(await serve(provider));
    conn.close(4000, 'done here');
    expect(await (await provider.session(0)).closed).toEqual({ code: 4000, reason: 'done here' });
  });

  it('breaking out of messages() closes the connection with 1000', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('a');
      s.socket.send('b');
    });
    const conn = await connect(await serve(provider));
    for await (const message of conn.messages()) {
      expect(message).toEqual({ type: 'text', data: 'a' });
      break;
    }
    expect(conn.isOpen).toBe(false);
    expect((await (await provider.session(0)).closed).code).toBe(1000);
  });

  it('C22: 50 connections on one long-lived signal leave no abort listener behind', async () => {
    const provider = scriptedWsProvider((s) => {
      s.socket.send('x');
      if (sessionsClosedByServer) s.socket.close(1011, 'bye');
    });
    let sessionsClosedByServer = false;
    const base = await serve(provider);
    const session = new AbortController();
    const transport = createWebSocketTransport();
    const baseline = getEventListeners(session.signal, 'abort').length;
    for (let i = 0; i < 50; i++) {
      sessionsClosedByServer = i % 2 === 1;
      const conn = await transport.connect({ provider: 'prov', url: base, signal: session.signal });
      expect(getEventListeners(session.signal, 'abort').length).toBe(baseline + 1);
      const iterator = conn.messages()[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual({ type: 'text', data: 'x' });
      if (sessionsClosedByServer) {
        expect(ProviderError.isInstance(await rejection(iterator.next()))).toBe(true);
      } else {
        await iterator.return?.();
      }
      await conn.closed;
      expect(getEventListeners(session.signal, 'abort').length).toBe(baseline);
    }
    expect(provider.sessions).toHaveLength(50);
  });

  it('bufferedAmount is a number of bytes (0 once flushed)', async () => {
    const conn = await connect(await serve(scriptedWsProvider()));
    expect(conn.bufferedAmount).toBe(0);
  });
});

describe('createWebSocketTransport with a standard constructor (the ws package)', () => {
  it('round-trips frames; canSendHeaders is false and headers are not sent', async () => {
    const { WebSocket } = await import('ws');
    const transport = createWebSocketTransport({
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    expect(transport.canSendHeaders).toBe(false);
    expect(createWebSocketTransport().canSendHeaders).toBe(true);
    const provider = scriptedWsProvider();
    const conn = await connect(await serve(provider), { headers: { 'x-custom': 'yes' } }, transport);
    conn.send('t');
    conn.send(new Uint8Array([9, 8]));
    const iterator = conn.messages()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text', data: 't' });
    expect((await iterator.next()).value).toEqual({ type: 'binary', data: new Uint8Array([9, 8]) });
    expect((await provider.session(0)).request.headers.get('x-custom')).toBeNull();
  });

  it('a refused upgrade cannot show its status: ProviderError without status, retryable', async () => {
    const { WebSocket } = await import('ws');
    const transport = createWebSocketTransport({
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    const provider = scriptedWsProvider(undefined, () => ({ reject: { status: 401 } }));
    const base = await serve(provider);
    const error = await rejection(transport.connect({ provider: 'prov', url: `${base}/?api_key=${KEY}` }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBeUndefined();
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as ProviderError).message).not.toContain(KEY);
  });

  it("connect deadline with Node 22's global WebSocket (no close event for a socket closed while connecting): connect fails at the deadline, and close() waits for no close handshake", async () => {
    const { WebSocket: Undici } = await import('undici');
    /** undici's WebSocket as Node 22 bundles it: close() before `open` fires no `close` event. */
    class Node22WebSocket extends Undici {
      private closedEarly = false;
      override close(code?: number, reason?: string): void {
        if (this.readyState === Undici.CONNECTING) this.closedEarly = true;
        super.close(code, reason);
      }
      override dispatchEvent(event: Event): boolean {
        return event.type === 'close' && this.closedEarly ? false : super.dispatchEvent(event);
      }
    }
    silent = await startSilentServer();
    const clock = new FakeClock();
    const transport = createWebSocketTransport({
      clock,
      WebSocket: Node22WebSocket as unknown as typeof globalThis.WebSocket,
      closeTimeoutMs: 5000,
    });
    const pending = transport.connect({
      provider: 'prov',
      url: `ws://127.0.0.1:${silent.port}/`,
      deadlines: { connectMs: 1500 },
    });
    await silent.nextHandshake();
    clock.advance(1500);
    const error = await rejection(pending);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).phase).toBe('connect');
    expect((error as TimeoutError).timeoutMs).toBe(1500);
    // No 5 s close timer is left: the session ended at the deadline, so close() resolves with the
    // clock stopped (it waited for the close timer before).
    expect(clock.pending).toBe(0);
    await transport.close?.();
  });
});
