/**
 * A faulty HTTP/1.1 provider (node:http): answers every request with one fault, writing the
 * wire bytes a transport's script gives it (raw audio, SSE frames, JSON, event-stream
 * messages). Mid-stream faults strike only once the caller has the first output.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RETRY_AFTER_S } from '../matrix.js';
import type { CellContext } from './cell.js';
import { destroyAll, listenLoopback, refusedUrl } from './scope.js';

/** What a provider says on the wire for one capability. */
export interface Http1Script {
  /** Content type of a 200 answer. */
  contentType: string;
  /** Wire bytes of the first output. */
  first: Buffer;
  /** The rest of a whole answer, end marker included. */
  rest: Buffer;
  /** A whole 200 body that is malformed from its first frame. */
  malformed: Buffer;
  /** Headers and body of an HTTP error answer with `status`. */
  error(status: number): { headers: Record<string, string>; body: string };
  /**
   * False when the caller gets no output before the body's end (one JSON document): then a
   * mid-stream fault strikes after the first piece was written, not after the caller saw it.
   */
  streamsOutput?: boolean;
}

async function readAll(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

/** Writes `bytes` and resolves once they are handed to the kernel. */
function write(res: ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => res.write(bytes, () => resolve()));
}

async function answer(script: Http1Script, ctx: CellContext, req: IncomingMessage, res: ServerResponse) {
  await readAll(req);
  const socket = req.socket as Socket;
  const head = () => {
    res.writeHead(200, { 'content-type': script.contentType });
    res.flushHeaders();
  };
  const afterFirst = async () => {
    if (script.streamsOutput === false) await nextTurn();
    else await ctx.firstSeen;
  };
  switch (ctx.fault) {
    case 'reset before headers':
      socket.resetAndDestroy();
      return;
    case '429 + Retry-After':
    case '500':
    case '503': {
      const status = ctx.fault === '429 + Retry-After' ? 429 : Number(ctx.fault);
      const { headers, body } = script.error(status);
      const extra = status === 429 ? { 'retry-after': String(RETRY_AFTER_S) } : {};
      res.writeHead(status, { ...headers, ...extra }).end(body);
      return;
    }
    case 'stall before first chunk':
      head();
      ctx.doneWriting();
      return; // never a byte of body
    case 'stall mid-stream':
      head();
      await write(res, script.first);
      await afterFirst();
      ctx.doneWriting();
      return;
    case 'reset mid-stream':
      head();
      await write(res, script.first);
      await afterFirst();
      socket.resetAndDestroy();
      return;
    case 'malformed frame':
      head();
      res.end(script.malformed);
      return;
    case 'slow consumer':
      head();
      await write(res, script.first);
      res.end(script.rest, () => ctx.doneWriting());
      return;
    default:
      throw new Error(`fault ${ctx.fault} does not exist on HTTP`);
  }
}

/** Starts a provider showing `ctx.fault` with `script`; its base URL (a dead port for `refused`). */
export async function faultyHttp1(script: Http1Script, ctx: CellContext): Promise<string> {
  if (ctx.fault === 'refused') return refusedUrl();
  const sockets: Socket[] = [];
  const server = createServer((req, res) => {
    void answer(script, ctx, req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => sockets.push(s));
  const url = await listenLoopback(server);
  ctx.scope.add(async () => {
    await destroyAll(sockets);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}
