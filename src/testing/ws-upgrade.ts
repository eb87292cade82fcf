import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer, WebSocket as WsSocket } from 'ws';
import type { MockProvider } from './mock-provider.js';
import type { MockUpgrade } from './mock-websocket.js';
import { toWebRequest } from './node-adapter.js';
import { mockSocketOfWs } from './ws-node-socket.js';

/** Serves the WebSocket upgrades of one mock server; see {@link createUpgradeHandler}. */
export interface UpgradeHandler {
  /** The node:http `upgrade` event listener. */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Terminates every open WebSocket session and drops upgrades in progress. */
  closeAll(): void;
}

let loadingWs: Promise<typeof import('ws')> | undefined;

/**
 * Loads the optional peer dependency `ws` once: when a mock that serves WebSockets starts (so a
 * missing package is an error at start, not an HTTP 500 on the first upgrade). Rejects with an
 * Error naming the package to install, the import error as `cause`.
 */
export function loadWs(): Promise<typeof import('ws')> {
  loadingWs ??= import('ws').catch((error: unknown) => {
    loadingWs = undefined;
    throw new Error('voxroute/testing: serving WebSocket mocks needs the `ws` package (npm i -D ws)', {
      cause: error,
    });
  });
  return loadingWs;
}

/**
 * The upgrade side of `startMockServer`: each HTTP upgrade becomes a web `Request` (URL with
 * query, handshake headers; its signal aborts when the connection goes away) given to
 * `provider.upgrade`. `{ reject: { status, body } }` answers that HTTP status (and body) and
 * closes the connection; `{ accept }` completes the handshake with the `ws` package (see
 * {@link loadWs}) and runs `accept` with the session as a MockSocket. A provider without
 * `upgrade`, or whose `upgrade` throws, answers 404 / 500. Only `websocket` upgrades are served.
 *
 * @param origin Returns the server's origin (known once it listens).
 */
export function createUpgradeHandler(provider: MockProvider, origin: () => string): UpgradeHandler {
  const sockets = new Set<Duplex>();
  const sessions = new Set<WsSocket>();
  let server: WebSocketServer | undefined;
  let closed = false;

  const serve = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const gone = new AbortController();
    socket.once('close', () => gone.abort());
    if (!provider.upgrade || (req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      refuse(socket, 404, 'no WebSocket endpoint here');
      return;
    }
    let decision: MockUpgrade;
    try {
      decision = provider.upgrade(toWebRequest(req, origin(), gone.signal));
    } catch (error) {
      refuse(socket, 500, error instanceof Error ? error.message : String(error));
      return;
    }
    if ('reject' in decision) {
      refuse(socket, decision.reject.status, decision.reject.body ?? '');
      return;
    }
    const { WebSocketServer } = await loadWs();
    if (closed || socket.destroyed) return;
    server ??= new WebSocketServer({ noServer: true, perMessageDeflate: false });
    server.handleUpgrade(req, socket, head, (ws) => {
      sockets.delete(socket);
      if (closed) {
        ws.terminate();
        return;
      }
      sessions.add(ws);
      ws.once('close', () => sessions.delete(ws));
      decision.accept(mockSocketOfWs(ws));
    });
  };

  return {
    onUpgrade(req, socket, head) {
      if (closed) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      serve(req, socket, head).catch((error: unknown) => {
        refuse(socket, 500, error instanceof Error ? error.message : String(error));
      });
    },
    closeAll() {
      closed = true;
      for (const ws of sessions) ws.terminate();
      sessions.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server?.close();
    },
  };
}

/** Answers an upgrade with a plain HTTP status and body, then closes the connection. */
function refuse(socket: Duplex, status: number, body: string): void {
  if (socket.destroyed) return;
  const payload = Buffer.from(body, 'utf8');
  const type = body.trimStart().startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8';
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n` +
    `Content-Type: ${type}\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`;
  socket.once('finish', () => socket.destroy());
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), payload]));
}
