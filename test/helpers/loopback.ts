import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';

/** One request a loopback server received, with its whole body. */
export interface LoopbackRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A node:http server on a loopback port that speaks whatever its handler writes. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request received, in order. */
  requests: LoopbackRequest[];
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

/**
 * Starts a tiny node:http server on 127.0.0.1 (a free port) for tests that need a server
 * speaking the wire on its own (not our mocks); `handler` runs once the whole request body
 * was read.
 */
export async function startLoopbackServer(
  handler: (request: LoopbackRequest, res: ServerResponse) => void | Promise<void>,
): Promise<LoopbackServer> {
  const requests: LoopbackRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: LoopbackRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(recorded);
    await handler(recorded, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes an SSE response: status 200, `text/event-stream`, each frame as its own write, then end. */
export function sendSse(res: ServerResponse, frames: readonly string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of frames) res.write(frame);
  res.end();
}

/** Writes a JSON response with `status` and extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A raw TCP server on 127.0.0.1 that hands over each connection once it is ready (see {@link startTcpServer}). */
export interface TcpServer {
  port: number;
  /** Resolves with the next ready socket (in the order they became ready). */
  nextHandshake(): Promise<Socket>;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a raw TCP server on 127.0.0.1 (a free port) for tests of what a client does with a peer
 * that misbehaves below HTTP: `onConnection(socket, ready)` plays the peer and calls `ready()`
 * when the test may have the socket (e.g. once its handshake request arrived).
 */
export async function startTcpServer(
  onConnection: (socket: Socket, ready: () => void) => void,
): Promise<TcpServer> {
  const sockets: Socket[] = [];
  const pending: Array<(socket: Socket) => void> = [];
  const queued: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    onConnection(socket, () => {
      const waiter = pending.shift();
      if (waiter) waiter(socket);
      else queued.push(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    nextHandshake() {
      const socket = queued.shift();
      return socket ? Promise.resolve(socket) : new Promise((resolve) => pending.push(resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
