import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { HttpTransport } from '../../src/transport/types.js';

/** One request the loopback server received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  socket: Socket;
  /** Resolves with performance.now() when the request's socket closes. */
  socketClosed: Promise<number>;
}

/** A node:http server on 127.0.0.1, port 0, that records requests and sockets. */
export interface Loopback {
  origin: string;
  requests: SeenRequest[];
  /** Sockets ever accepted. */
  connections: Socket[];
  /** Resolves with the next request received (or the n-th, 0-based, if already received). */
  request(index: number): Promise<SeenRequest>;
  close(): Promise<void>;
}

export async function startLoopback(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void,
): Promise<Loopback> {
  const requests: SeenRequest[] = [];
  const connections: Socket[] = [];
  const waiters = new Map<number, (seen: SeenRequest) => void>();
  const server = http.createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      socket: req.socket,
      socketClosed: closedAt(req.socket),
    };
    requests.push(seen);
    waiters.get(requests.length - 1)?.(seen);
    handler(req, res, seen);
  });
  server.on('connection', (socket) => connections.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections,
    request(index) {
      const seen = requests[index];
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.set(index, resolve));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const closedAtCache = new WeakMap<Socket, Promise<number>>();

function closedAt(socket: Socket): Promise<number> {
  let promise = closedAtCache.get(socket);
  if (!promise) {
    promise = socket.destroyed
      ? Promise.resolve(performance.now())
      : new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    closedAtCache.set(socket, promise);
  }
  return promise;
}

/**
 * Registers the loopback hooks of a describe block: a server running `handler`, started before
 * its tests (handed to `started`) and closed after them, and the test's transport (`current()`)
 * closed after each test.
 */
export function loopbackHooks(
  handler: Parameters<typeof startLoopback>[0],
  started: (loop: Loopback) => void,
  current: () => HttpTransport | undefined,
): void {
  let loop: Loopback | undefined;
  beforeAll(async () => {
    loop = await startLoopback(handler);
    started(loop);
  });
  afterAll(async () => {
    await loop?.close();
  });
  afterEach(async () => {
    await current()?.close();
  });
}

/** Event-loop turns a socket close already sent by the peer may take to be read and reported. */
const CLOSE_TURNS = 10;

/**
 * Whether `closed` settles within `ms` of this call, timed by the event loop rather than the
 * wall clock, so that a loaded machine does not fail it: a timer armed now for `ms` must fire,
 * and then a close the kernel already has gets up to {@link CLOSE_TURNS} turns (setImmediate,
 * each with a poll for I/O) to be read. On a machine too busy to run this process, the timer
 * fires late, after the close was already waiting to be read, and the close is still counted
 * in time; a close that waits on something of its own (a timer, the server's next write) still
 * misses. Call it where the clock would have been read: right before the abort or cancel.
 */
export async function closesWithin(closed: Promise<unknown>, ms: number): Promise<boolean> {
  let done = false;
  void closed.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (let turn = 0; turn < CLOSE_TURNS && !done; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** A port on 127.0.0.1 with nothing listening (bound then closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export { readAll, rejectionOf } from '../helpers/index.js';
