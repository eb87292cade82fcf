/**
 * A faulty SageMaker bidirectional endpoint: h2c (HTTP/2 with prior knowledge, node:http2),
 * one stream per invocation, answering with event-stream messages from a transport's script.
 * A reset is RST_STREAM INTERNAL_ERROR on the invocation's stream.
 */
import { createServer, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { RETRY_AFTER_S } from '../matrix.js';
import type { CellContext } from './cell.js';
import type { Http1Script } from './http1.js';
import { destroyAll, listenLoopback, refusedUrl } from './scope.js';

/** Resets the stream with RST_STREAM INTERNAL_ERROR (destroy with an error sends the reset). */
function reset(stream: ServerHttp2Stream): void {
  stream.destroy(new Error('endpoint crashed'));
}

function answer(script: Http1Script, ctx: CellContext, stream: ServerHttp2Stream): void {
  stream.on('error', () => {});
  const ok = () => stream.respond({ ':status': 200, 'content-type': script.contentType });
  const inputEnd = new Promise<void>((resolve) => stream.on('end', resolve));
  stream.resume();
  switch (ctx.fault) {
    case 'reset before headers':
      reset(stream);
      return;
    case '429 + Retry-After':
    case '500':
    case '503': {
      const status = ctx.fault === '429 + Retry-After' ? 429 : Number(ctx.fault);
      const { headers, body } = script.error(status);
      const extra = status === 429 ? { 'retry-after': String(RETRY_AFTER_S) } : {};
      stream.respond({ ':status': status, ...headers, ...extra });
      stream.end(body);
      return;
    }
    case 'stall before first chunk':
      ok();
      ctx.doneWriting();
      return;
    case 'stall mid-stream':
      ok();
      stream.write(script.first);
      void ctx.firstSeen.then(ctx.doneWriting);
      return;
    case 'reset mid-stream':
      ok();
      stream.write(script.first);
      void ctx.firstSeen.then(() => reset(stream));
      return;
    case 'malformed frame':
      ok();
      stream.write(script.malformed);
      return;
    case 'slow consumer':
      ok();
      stream.write(script.first);
      // The rest once the caller's input ended (all of the audio heard, for STT).
      void inputEnd.then(() => stream.end(script.rest, () => ctx.doneWriting()));
      return;
    default:
      throw new Error(`fault ${ctx.fault} does not exist on a SageMaker bidirectional stream`);
  }
}

/** Starts an h2c endpoint showing `ctx.fault`; its URL (a dead port for `refused`). */
export async function faultyH2(script: Http1Script, ctx: CellContext): Promise<string> {
  if (ctx.fault === 'refused') return refusedUrl();
  const server = createServer();
  const sessions: Http2Session[] = [];
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.on('session', (session) => {
    sessions.push(session);
    session.on('error', () => {});
  });
  server.on('stream', (stream) => answer(script, ctx, stream));
  const url = await listenLoopback(server);
  ctx.scope.add(async () => {
    for (const s of sessions) s.destroy();
    await destroyAll(sockets);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}
