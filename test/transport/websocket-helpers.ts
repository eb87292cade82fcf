import type { Socket } from 'node:net';
import type { MockProvider, MockSocket, MockUpgrade } from '../../src/testing/index.js';
import { startTcpServer, type TcpServer } from '../helpers/index.js';

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
export type SilentServer = TcpServer;

export function startSilentServer(): Promise<SilentServer> {
  return startTcpServer((socket, ready) => socket.once('data', ready));
}

/** Resolves when `socket` has closed. */
export function socketClosed(socket: Socket): Promise<void> {
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Lets pending I/O and microtasks run (one macrotask turn). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export { drain, rejectionOf as rejection } from '../helpers/index.js';

/**
 * A TCP server that completes WebSocket handshakes (101 with the right Sec-WebSocket-Accept,
 * RFC 6455 §4.2.2) and then ignores every frame, never answering a close frame.
 */
export async function startDeafServer(): Promise<SilentServer> {
  const { createHash } = await import('node:crypto');
  return startTcpServer((socket, ready) => {
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
      ready();
    };
    socket.on('data', onData);
  });
}
