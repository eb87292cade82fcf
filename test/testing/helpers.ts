import { request as httpRequest, type IncomingMessage } from 'node:http';

export { expectSameBytes } from '../helpers/index.js';

/** The `data:` payloads of an SSE body, one per event, in order. */
export function sseData(body: string): string[] {
  return body
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    );
}

/** POSTs JSON to `url` with the global fetch. */
export function postJson(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
    body: JSON.stringify(body),
  });
}

/** Result of {@link rawPost}: status, and each body piece as node:http delivered it. */
export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  pieces: Buffer[];
  /** The error the response stream or request failed with, if any. */
  error?: NodeJS.ErrnoException;
}

/** POSTs JSON with a raw node:http request and collects the body pieces as they arrive. */
export function rawPost(url: string, body: unknown): Promise<RawResult> {
  return new Promise((resolve) => {
    let response: IncomingMessage | undefined;
    const pieces: Buffer[] = [];
    // A reset after the headers surfaces on the response (Node 20) or on the request (Node 24).
    const finish = (error?: NodeJS.ErrnoException) =>
      resolve({
        status: response?.statusCode ?? 0,
        headers: response?.headers ?? {},
        pieces,
        ...(error ? { error } : {}),
      });
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      agent: false,
    });
    req.on('error', finish);
    req.on('response', (res) => {
      response = res;
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('end', () => finish());
      res.on('error', finish);
    });
    req.end(JSON.stringify(body));
  });
}

/** Every chunk of a web body, as read one `read()` at a time. */
export async function readChunks(response: Response): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** The parsed JSON of each `data:` payload of an SSE body (`[DONE]` kept as the string). */
export function sseJson(body: string): unknown[] {
  return sseData(body).map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

/** A JSON POST `Request` for a mock's `handle()`, at `http://mock.test/v1{path}`. */
export function jsonRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://mock.test/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
