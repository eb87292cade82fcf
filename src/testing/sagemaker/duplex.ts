import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { constants } from 'node:http2';
import { handleBidirectional } from './bidi.js';
import type { SageMakerMock } from './mock.js';

/**
 * Serves one HTTP/2 stream of the emulator: the bidirectional operation (see
 * `handleBidirectional`), or any other request through the mock's `handle`.
 */
export async function handleHttp2Stream(
  mock: SageMakerMock,
  origin: string,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
): Promise<void> {
  const method = String(headers[':method'] ?? 'GET');
  const path = String(headers[':path'] ?? '/');
  const url = new URL(path, origin);
  if (method === 'POST' && url.pathname.endsWith('/invocations-bidirectional-stream')) {
    return handleBidirectional(mock, url, stream, headers, (response) => sendHttp2Response(response, stream));
  }
  const gone = new AbortController();
  stream.once('close', () => gone.abort());
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    requestHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  const init: RequestInit = { method, headers: requestHeaders, signal: gone.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    // The whole body first: a web stream over an HTTP/2 server stream (Readable.toWeb) does
    // not end on Node 20. These operations send their body in one piece anyway.
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    init.body = Buffer.concat(chunks);
  }
  const response = await mock.handle(new Request(url, init));
  await sendHttp2Response(response, stream);
}

/** Writes a web Response on an HTTP/2 stream; `Response.error()` resets the stream. */
export async function sendHttp2Response(response: Response, stream: ServerHttp2Stream): Promise<void> {
  if (stream.destroyed || stream.closed) return;
  if (response.type === 'error') {
    stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  const out: Record<string, string | number> = { ':status': response.status };
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  stream.respond(out);
  if (!response.body) {
    stream.end();
    return;
  }
  const reader = response.body.getReader();
  stream.once('close', () => reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (stream.destroyed) return;
      await new Promise<void>((resolve, reject) =>
        stream.write(value, (error) => (error ? reject(error) : resolve())),
      );
    }
    stream.end();
  } catch {
    if (!stream.destroyed) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
  }
}
