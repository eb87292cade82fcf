/**
 * The fuzz harness's providers: one loopback server per adapter (node:http, ws, node:http2
 * h2c) that answers every request with the answer of the current case, whatever it is, written
 * on its own (no voxroute mock). A case sets `slot.current` before its call.
 */
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createH2, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { destroyAll, listenLoopback, type Scope } from '../../faults/wire/scope.js';
import type { Mutated } from './answer.js';

/** What the server of an adapter answers with, and what it has seen. */
export interface Slot {
  current?: Mutated;
  /** Requests (HTTP) or answered WebSocket requests of the current case. */
  hits: number;
  /** The request's credential as the server received it (for the echo mutation). */
  received?: string;
  /** Resolves once the server wrote all of the current case's answer and ended its connection. */
  finished: Promise<void>;
  markFinished(): void;
  /** Resets the slot for a new case. */
  reset(mutated: Mutated): void;
}

export function slot(): Slot {
  let resolve = () => {};
  const s: Slot = {
    hits: 0,
    finished: Promise.resolve(),
    markFinished: () => resolve(),
    reset(mutated) {
      s.current = mutated;
      s.hits = 0;
      s.finished = new Promise((r) => {
        resolve = r;
      });
    },
  };
  return s;
}

const written = (res: ServerResponse | ServerHttp2Stream, bytes: Buffer) =>
  new Promise<void>((resolve) => {
    if (bytes.byteLength === 0) resolve();
    else res.write(bytes, () => resolve());
  });

/** An HTTP/1.1 provider: 200 with the wire's content type and the case's body (chunked). */
export async function httpProvider(scope: Scope, s: Slot, contentType: string): Promise<string> {
  const sockets: Socket[] = [];
  const server = createHttp((req: IncomingMessage, res: ServerResponse) => {
    s.hits++;
    void (async () => {
      for await (const _ of req);
      const m = s.current as Mutated;
      res.writeHead(200, { 'content-type': m.contentType ?? contentType });
      res.flushHeaders();
      for (const piece of m.messages) await written(res, piece);
      if (m.ending === 'reset') {
        req.socket.destroy();
      } else if (m.ending !== 'open') {
        await new Promise<void>((resolve) => res.end(() => resolve()));
      }
      s.markFinished();
    })().catch(() => {
      res.destroy();
      s.markFinished();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  const url = await listenLoopback(server);
  scope.add(async () => {
    await destroyAll(sockets);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}

/** An h2c provider (SageMaker's bidirectional stream): 200 with the case's body once the input ended. */
export async function h2Provider(scope: Scope, s: Slot, contentType: string): Promise<string> {
  const server = createH2();
  const sessions: Http2Session[] = [];
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.on('session', (session) => {
    sessions.push(session);
    session.on('error', () => {});
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    s.hits++;
    stream.on('error', () => {});
    const inputEnd = new Promise<void>((resolve) => stream.on('end', resolve));
    stream.resume();
    void (async () => {
      await inputEnd;
      const m = s.current as Mutated;
      stream.respond({ ':status': 200, 'content-type': m.contentType ?? contentType });
      for (const piece of m.messages) await written(stream, piece);
      if (m.ending === 'reset') stream.destroy(new Error('reset by the fuzz endpoint'));
      else if (m.ending !== 'open') await new Promise<void>((resolve) => stream.end(() => resolve()));
      s.markFinished();
    })().catch(() => s.markFinished());
  });
  const url = await listenLoopback(server);
  scope.add(async () => {
    for (const session of sessions) session.destroy();
    await destroyAll(sockets);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}

/**
 * A WebSocket provider: on the client message that `trigger` accepts (its text), sends the
 * case's messages as text frames (the placeholder `@@CTX@@` replaced by what `context` read
 * from the triggering message), then ends the connection as the case says.
 */
export async function wsProvider(
  scope: Scope,
  s: Slot,
  trigger: (text: string | undefined, isBinary: boolean) => boolean,
  context: (text: string) => string = () => '',
): Promise<string> {
  const server = createHttp((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const sockets: Socket[] = [];
  server.on('upgrade', (req, socket, head) => {
    sockets.push(req.socket);
    socket.on('error', () => {});
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });
  const serve = (ws: WebSocket) => {
    ws.on('error', () => {});
    /** The contexts answered on this socket (one answer per context; '' for one-call sockets). */
    const answered = new Set<string>();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? undefined : String(data);
      if (!trigger(text, isBinary)) return;
      const id = context(text ?? '');
      if (answered.has(id)) return;
      answered.add(id);
      s.hits++;
      const ctx = Buffer.from(id);
      const m = s.current as Mutated;
      void (async () => {
        for (const [i, message] of m.messages.entries()) {
          const bytes = replaceAll(message, Buffer.from('@@CTX@@'), ctx);
          const binary = m.binary?.includes(i) ?? false;
          await new Promise<void>((resolve) => ws.send(bytes, { binary }, () => resolve()));
        }
        if (m.ending === 'drop') ws.terminate();
        else if (m.ending !== 'open') ws.close(m.ending as number);
        s.markFinished();
      })().catch(() => {
        ws.terminate();
        s.markFinished();
      });
    });
  };
  const url = await listenLoopback(server);
  scope.add(async () => {
    for (const client of wss.clients) client.terminate();
    await destroyAll(sockets);
    wss.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return url;
}

function replaceAll(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = bytes.indexOf(from); i !== -1; i = bytes.indexOf(from, at)) {
    parts.push(bytes.subarray(at, i), to);
    at = i + from.byteLength;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}
