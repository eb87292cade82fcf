import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttemptContext } from '../../../src/providers/types.js';
import type { Deadlines, HttpRequest, HttpTransport } from '../../../src/transport/types.js';

/** One request a loopback server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A node:http server on a loopback port that records every request. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a loopback server; `handler` runs after the whole request body was read. */
export async function startServer(
  handler: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>,
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
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
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes an SSE response: status 200, `text/event-stream`, each string written as its own chunk, then end. */
export function sendSse(res: ServerResponse, frames: string[]): void {
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

/** `data: <json>\n\n` */
export function data(value: unknown): string {
  return `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
}

/** A transport that records every request it forwards to `inner`. */
export function recordingTransport(inner: HttpTransport): HttpTransport & { sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  return {
    sent,
    request: (req) => {
      sent.push(req);
      return inner.request(req);
    },
    close: () => inner.close(),
  };
}

/** An AttemptContext over `transport`. */
export function attemptOf(
  transport: HttpTransport,
  signal: AbortSignal = new AbortController().signal,
  deadlines: Deadlines = { headersMs: 5000, idleMs: 5000 },
): AttemptContext {
  return { signal, deadlines, transport };
}

/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Drains an async iterable; returns what it yielded before it threw, and the error. */
export async function collectUntilError<T>(
  iterable: AsyncIterable<T>,
): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
  } catch (error) {
    return { items, error };
  }
  throw new Error(`expected the stream to fail; it ended normally after ${items.length} items`);
}

/** An async iterable over `chunks`. */
export async function* fromChunks(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}
