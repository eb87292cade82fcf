/**
 * A provider at an https:// or wss:// URL whose TCP side accepts the connection and reads the
 * TLS ClientHello but never answers it (a hung TLS terminator). A call given up while that
 * handshake is pending (the caller's abort, the route's connect deadline, router.close()) must
 * close its TCP connection at once, not when undici's own connect timeout (10 s) passes: the
 * server here sees each socket close soon after the call rejected.
 *
 * The server is a plain net.Server of the test; closes are awaited as 'close' events, and the
 * time from the call's rejection to the server's close is compared with a bound far below
 * undici's 10 s connect timeout.
 */
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, AllProvidersFailedError, TimeoutError } from '../../src/index.js';
import { router } from './wire/servers.js';

/** Time from the call's rejection to the server seeing the socket close, at most (ms). undici alone: 10,000. */
const CLOSE_BOUND_MS = 2000;
/** A route's connect deadline long enough never to fire in these tests (ms). */
const LONG_CONNECT_MS = 60_000;

/** One TCP connection accepted by the hung TLS server. */
interface HungConnection {
  /** Resolves with the first bytes read (the ClientHello): the client is in its TLS handshake. */
  hello: Promise<Buffer>;
  /** Resolves with `performance.now()` at the server socket's 'close' event. */
  closedAt: Promise<number>;
}

/** A TCP server that accepts, reads everything and never writes. */
interface HungTls {
  origin: string;
  /** Resolves with the `n`th connection (0-based) once it is accepted. */
  connection(n: number): Promise<HungConnection>;
  /** Connections accepted so far whose socket has not closed. */
  open(): number;
}

const servers: net.Server[] = [];
/** Server sockets not closed yet: destroyed after each test, so that a failing test leaves nothing open. */
const serverSockets = new Set<net.Socket>();
afterEach(async () => {
  for (const socket of serverSockets) socket.destroy();
  serverSockets.clear();
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function hungTls(): Promise<HungTls> {
  const sockets = new Set<net.Socket>();
  const accepted: HungConnection[] = [];
  const waiters = new Map<number, (c: HungConnection) => void>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    serverSockets.add(socket);
    socket.on('error', () => {});
    const hello = new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.resume();
    const closedAt = new Promise<number>((resolve) =>
      socket.once('close', () => {
        sockets.delete(socket);
        serverSockets.delete(socket);
        resolve(performance.now());
      }),
    );
    const connection = { hello, closedAt };
    const n = accepted.push(connection) - 1;
    waiters.get(n)?.(connection);
    waiters.delete(n);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    connection: (n) => {
      const ready = accepted[n];
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => waiters.set(n, resolve));
    },
    open: () => sockets.size,
  };
}

/** Iterates `stream` to its end; resolves with `performance.now()` and the error it threw. */
async function failure(stream: AsyncIterable<unknown>): Promise<{ at: number; error: unknown }> {
  try {
    for await (const _ of stream) {
      // a hung handshake yields nothing
    }
  } catch (error) {
    return { at: performance.now(), error };
  }
  throw new Error('the call ended without an error');
}

/** The ClientHello starts with a TLS handshake record (content type 22). */
const TLS_HANDSHAKE_RECORD = 0x16;

const fakeKey = (prefix: string) => [prefix, 'test', 'key', '1'].join('-');

async function* silence(signal: AbortSignal): AsyncGenerator<Uint8Array> {
  // One chunk, then the stream waits for the abort: the audio never ends on its own.
  yield new Uint8Array(3200);
  await once(signal, 'abort');
}

describe('a TLS handshake the provider never answers', () => {
  it('HTTPS chat: the caller abort closes the connection at once', { timeout: 20_000 }, async () => {
    const server = await hungTls();
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${server.origin}/v1`, chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['a'], connectTimeoutMs: LONG_CONNECT_MS, firstChunkTimeoutMs: false } },
    });
    const controller = new AbortController();
    const call = failure(
      r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast', signal: controller.signal }),
    );
    const connection = await server.connection(0);
    expect((await connection.hello)[0]).toBe(TLS_HANDSHAKE_RECORD);
    controller.abort();
    const { at, error } = await call;
    expect(AbortError.isInstance(error)).toBe(true);
    const closedAt = await connection.closedAt;
    expect(closedAt - at).toBeLessThan(CLOSE_BOUND_MS);
    expect(server.open()).toBe(0);
  });

  it('HTTPS chat: the connect deadline closes each connection at once', { timeout: 20_000 }, async () => {
    const server = await hungTls();
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${server.origin}/v1`, chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['a'], connectTimeoutMs: 300, firstChunkTimeoutMs: false } },
    });
    for (const n of [0, 1]) {
      const { at, error } = await failure(
        r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }),
      );
      expect(AllProvidersFailedError.isInstance(error)).toBe(true);
      const attempts = (error as AllProvidersFailedError).attempts;
      expect(attempts.map((a) => a.provider)).toEqual(['a']);
      const cause = attempts[0]?.error;
      expect(TimeoutError.isInstance(cause)).toBe(true);
      expect((cause as TimeoutError).phase).toBe('connect');
      const connection = await server.connection(n);
      expect((await connection.hello)[0]).toBe(TLS_HANDSHAKE_RECORD);
      expect((await connection.closedAt) - at).toBeLessThan(CLOSE_BOUND_MS);
    }
    expect(server.open()).toBe(0);
  });

  it('HTTPS chat: router.close() closes a connection still in its handshake', {
    timeout: 20_000,
  }, async () => {
    const server = await hungTls();
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${server.origin}/v1`, chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['a'], connectTimeoutMs: LONG_CONNECT_MS, firstChunkTimeoutMs: false } },
    });
    const call = failure(r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }));
    const connection = await server.connection(0);
    expect((await connection.hello)[0]).toBe(TLS_HANDSHAKE_RECORD);
    await r.close();
    const closedBy = performance.now();
    const { error } = await call;
    expect(AbortError.isInstance(error)).toBe(true);
    expect((await connection.closedAt) - closedBy).toBeLessThan(CLOSE_BOUND_MS);
    expect(server.open()).toBe(0);
  });

  it('Deepgram listen over WSS: the caller abort closes the connection at once', {
    timeout: 20_000,
  }, async () => {
    const server = await hungTls();
    const r = router({
      providers: {
        a: { kind: 'deepgram', baseUrl: server.origin, apiKey: fakeKey('dg'), stt: { model: 'nova-3' } },
      },
      routes: { stt: { providers: ['a'], connectTimeoutMs: LONG_CONNECT_MS, firstChunkTimeoutMs: false } },
    });
    const controller = new AbortController();
    const call = failure(
      r.stt({
        audio: silence(controller.signal),
        format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
        signal: controller.signal,
      }),
    );
    const connection = await server.connection(0);
    expect((await connection.hello)[0]).toBe(TLS_HANDSHAKE_RECORD);
    controller.abort();
    const { at, error } = await call;
    expect(AbortError.isInstance(error)).toBe(true);
    expect((await connection.closedAt) - at).toBeLessThan(CLOSE_BOUND_MS);
    expect(server.open()).toBe(0);
  });

  it('Cartesia TTS over WSS: the connect deadline closes the connection at once', {
    timeout: 20_000,
  }, async () => {
    const server = await hungTls();
    const r = router({
      providers: {
        a: {
          kind: 'cartesia',
          baseUrl: server.origin,
          apiKey: fakeKey('ca'),
          tts: { voices: { agent: 'v' }, transport: 'websocket' },
        },
      },
      routes: { tts: { providers: ['a'], connectTimeoutMs: 300, firstChunkTimeoutMs: false } },
    });
    const { at, error } = await failure(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const cause = (error as AllProvidersFailedError).attempts[0]?.error;
    expect(TimeoutError.isInstance(cause)).toBe(true);
    expect((cause as TimeoutError).phase).toBe('connect');
    const connection = await server.connection(0);
    expect((await connection.hello)[0]).toBe(TLS_HANDSHAKE_RECORD);
    expect((await connection.closedAt) - at).toBeLessThan(CLOSE_BOUND_MS);
    expect(server.open()).toBe(0);
  });
});
