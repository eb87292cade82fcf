import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { MockProvider, MockSocket, MockUpgrade } from '../../src/testing/index.js';

/** The server side of one WebSocket session of a {@link ScriptedWsProvider}. */
export interface ServerSession {
  socket: MockSocket;
  request: Request;
  /** Frames received from the client, in order. */
  received: Array<string | Uint8Array>;
  /** Resolves with the close code and reason the server saw. */
  closed: Promise<{ code: number; reason: string }>;
}

/** A MockProvider speaking only WebSocket, whose sessions a test scripts. */
export interface ScriptedWsProvider extends MockProvider {
  /** Every upgrade request, accepted or not. */
  upgrades: Request[];
  sessions: ServerSession[];
  /** Resolves with the n-th session (0-based) once it has been accepted. */
  session(index: number): Promise<ServerSession>;
}

/**
 * A provider whose `upgrade` runs `decide` (default: accept), and whose accepted sessions run
 * `script` (default: echo every frame).
 */
export function scriptedWsProvider(
  script: (session: ServerSession) => void = (s) => s.socket.onMessage((data) => s.socket.send(data)),
  decide: (request: Request) => MockUpgrade | 'accept' = () => 'accept',
): ScriptedWsProvider {
  const sessions: ServerSession[] = [];
  const waiters = new Map<number, (session: ServerSession) => void>();
  const upgrades: Request[] = [];
  return {
    requests: [],
    upgrades,
    sessions,
    handle: async () => new Response('not found', { status: 404 }),
    session(index) {
      const found = sessions[index];
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.set(index, resolve));
    },
    upgrade(request) {
      upgrades.push(request);
      const decision = decide(request);
      if (decision !== 'accept') return decision;
      return {
        accept(socket) {
          const received: Array<string | Uint8Array> = [];
          let resolveClosed!: (value: { code: number; reason: string }) => void;
          const closed = new Promise<{ code: number; reason: string }>((resolve) => {
            resolveClosed = resolve;
          });
          socket.onMessage((data) => received.push(data));
          socket.onClose((code, reason) => resolveClosed({ code, reason }));
          const session: ServerSession = { socket, request, received, closed };
          sessions.push(session);
          script(session);
          waiters.get(sessions.length - 1)?.(session);
        },
      };
    },
  };
}

/** A TCP server that accepts connections and never answers: a WebSocket handshake that never completes. */
export interface SilentServer {
  port: number;
  /** Resolves with the next accepted socket once it has sent its first bytes (the handshake request). */
  nextHandshake(): Promise<Socket>;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets: Socket[] = [];
  const pending: Array<(socket: Socket) => void> = [];
  const ready: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('data', () => {
      const waiter = pending.shift();
      if (waiter) waiter(socket);
      else ready.push(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    nextHandshake() {
      const socket = ready.shift();
      return socket ? Promise.resolve(socket) : new Promise((resolve) => pending.push(resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Resolves when `socket` has closed. */
export function socketClosed(socket: Socket): Promise<void> {
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Lets pending I/O and microtasks run (one macrotask turn). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The error `promise` rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Reads every message of an iterable into an array, and the error that ended it (if any). */
export async function drain<T>(iterable: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}

/**
 * A TCP server that completes WebSocket handshakes (101 with the right Sec-WebSocket-Accept,
 * RFC 6455 §4.2.2) and then ignores every frame, never answering a close frame.
 */
export async function startDeafServer(): Promise<SilentServer> {
  const { createHash } = await import('node:crypto');
  const sockets: Socket[] = [];
  const pending: Array<(socket: Socket) => void> = [];
  const ready: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.resume();
      const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      const waiter = pending.shift();
      if (waiter) waiter(socket);
      else ready.push(socket);
    };
    socket.on('data', onData);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    nextHandshake() {
      const socket = ready.shift();
      return socket ? Promise.resolve(socket) : new Promise((resolve) => pending.push(resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
