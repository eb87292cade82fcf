import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { Readable } from 'node:stream';

/** Resets a TCP connection (RST where Node can, else a plain destroy). */
export function resetSocket(socket: Socket | null): void {
  if (socket === null || socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * A web `Request` for a node:http request: same method, URL, headers, and the body streamed.
 * `signal` aborts it (pass one that aborts when the client goes away).
 */
export function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

function write(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Sends a web `Response` on a node:http response: `Response.error()` resets the connection
 * before any header; otherwise status and headers go out at once (flushed), then each body
 * chunk as its own write (one HTTP chunk each, waiting for it to reach the socket); a body
 * stream that errors resets the connection there. If the client goes away first, the body
 * is cancelled.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  if (response.type === 'error') {
    resetSocket(res.socket);
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const onClose = () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      if (res.destroyed) return;
      await write(res, value);
    }
    res.end();
  } catch {
    resetSocket(res.socket);
  } finally {
    res.off('close', onClose);
    // Stopped before the body's end (the client went away, a write failed): the body is
    // cancelled here, so its producer learns it (a mock records the request as aborted) even
    // when 'close' came after this listener was removed, and whatever became of the request's
    // signal (a web Request follows its init signal only while the Request is reachable).
    if (!complete) reader.cancel().catch(() => {});
  }
}

/**
 * A node:http request listener that serves `handle` (a web-fetch handler): the request as a web
 * `Request` (its signal aborts when the client goes away before the answer ends), the answer
 * sent as it comes, and the connection reset when `handle` rejects. `origin()` is the server's
 * origin, known once it listens.
 */
export function webRequestListener(
  handle: (request: Request) => Promise<Response>,
  origin: () => string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    handle(toWebRequest(req, origin(), gone.signal))
      .then((response) => sendWebResponse(response, res))
      .catch(() => resetSocket(res.socket));
  };
}

/**
 * Starts `server` listening on `host` (default `127.0.0.1`) and `port` (default 0: a free
 * one); resolves with the port and the origin (`scheme://host:port`, scheme default `http`, an
 * IPv6 host in brackets). Rejects if the port cannot be bound.
 */
export async function listenOn(
  server: NetServer,
  port = 0,
  host = '127.0.0.1',
  scheme: 'http' | 'https' = 'http',
): Promise<{ port: number; origin: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, origin: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}

/** Runs `dropAll` (end every open connection), then stops `server`; resolves once it has closed. */
export function closeServer(server: NetServer, dropAll: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    dropAll();
    server.close(() => resolve());
  });
}
