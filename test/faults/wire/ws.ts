/**
 * A faulty WebSocket provider (node:http + ws): the upgrade itself can be reset or refused
 * with an HTTP status; after it, the server answers the client's request with one fault. The
 * messages come from a transport's script (Cartesia TTS JSON, Deepgram listen Results).
 */
import { createServer, type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { RETRY_AFTER_S } from '../matrix.js';
import type { CellContext } from './cell.js';
import { destroyAll, listenLoopback, refusedUrl } from './scope.js';

/** What a WebSocket provider says for one capability. */
export interface WsScript {
  /** The client message the server answers (a generation request, the first audio), parsed. */
  request(data: RawData, isBinary: boolean): unknown;
  /** True for the client message that ends its input; the rest is sent then. Omitted: at once. */
  isEnd?(data: RawData, isBinary: boolean): boolean;
  /** Sends the first output. */
  first(ws: WebSocket, request: unknown): void;
  /** Sends the rest of a whole answer, end marker (and close) included. */
  rest(ws: WebSocket, request: unknown): void;
  /** Close reasons of the provider for 1008 and 1011. */
  reasons: { 1008: string; 1011: string };
  /** Headers and body of a refused upgrade with `status`. */
  error(status: number): { headers: Record<string, string>; body: string };
}

function refuseUpgrade(socket: Duplex, status: number, script: WsScript): void {
  const { headers, body } = script.error(status);
  const all: Record<string, string> = {
    ...headers,
    ...(status === 429 ? { 'retry-after': String(RETRY_AFTER_S) } : {}),
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}

function serve(script: WsScript, ctx: CellContext, ws: WebSocket, req: IncomingMessage): void {
  const socket = req.socket;
  let request: unknown;
  let ended = false;
  const afterFirst = (send: () => void) => {
    if (!script.isEnd || ended) send();
    else ws.on('message', (data, isBinary) => script.isEnd?.(data, isBinary) && send());
  };
  ws.on('message', (data, isBinary) => {
    if (script.isEnd?.(data, isBinary)) ended = true;
    if (request !== undefined) return;
    request = script.request(data, isBinary);
    if (request === undefined) return;
    switch (ctx.fault) {
      case 'stall before first chunk':
        ctx.doneWriting();
        return;
      case 'stall mid-stream':
        script.first(ws, request);
        void ctx.firstSeen.then(ctx.doneWriting);
        return;
      case 'reset mid-stream':
        script.first(ws, request);
        void ctx.firstSeen.then(() => socket.resetAndDestroy());
        return;
      case 'malformed frame':
        ws.send('{"type":"chunk","data":');
        return;
      case 'WS close 1006':
        ws.terminate(); // the TCP connection ends without a close frame
        return;
      case 'WS close 1008':
      case 'WS close 1011': {
        const code = ctx.fault === 'WS close 1008' ? 1008 : 1011;
        ws.close(code, script.reasons[code]);
        return;
      }
      case 'slow consumer':
        script.first(ws, request);
        afterFirst(() => {
          script.rest(ws, request);
          ctx.doneWriting();
        });
        return;
      default:
        throw new Error(`fault ${ctx.fault} does not exist after a WebSocket upgrade`);
    }
  });
}

/** Starts a WebSocket provider showing `ctx.fault`; its base URL (http://, a dead port for `refused`). */
export async function faultyWs(script: WsScript, ctx: CellContext): Promise<string> {
  if (ctx.fault === 'refused') return refusedUrl();
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.on('error', () => {});
    switch (ctx.fault) {
      case 'reset before headers':
        req.socket.resetAndDestroy();
        return;
      case '429 + Retry-After':
        refuseUpgrade(socket, 429, script);
        return;
      case '500':
      case '503':
        refuseUpgrade(socket, Number(ctx.fault), script);
        return;
      default:
        wss.handleUpgrade(req, socket, head, (ws) => serve(script, ctx, ws, req));
    }
  });
  const url = await listenLoopback(server);
  ctx.scope.add(async () => {
    for (const client of wss.clients) client.terminate();
    await destroyAll(sockets as Set<Socket>);
    wss.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}
