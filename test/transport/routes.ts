import type http from 'node:http';
import type { SeenRequest } from './loopback.js';

/** Responses held open by `/manual`, for the test to write to. */
export const manual: http.ServerResponse[] = [];

/**
 * The loopback routes the transport tests use:
 * - `/chunks`: 200, body `a`, `bb`, `ccc` as three writes;
 * - `/echo`: 200, echoes the request body and its content-type;
 * - `/status/429`: OpenAI-style error with Retry-After, echoing the Authorization header;
 * - `/status/404`: FastAPI-style error;
 * - `/big-error`: 503 with a 1 MB body; `/small-error`: 503 with a short body;
 * - `/hold`: never answers; `/headers-only`: headers, then nothing;
 * - `/manual`: headers, then whatever the test writes to `manual[i]`;
 * - `/ticker`: an SSE event every 50 ms until the socket closes;
 * - `/first-then-hold`: one SSE event, then nothing;
 * - `/truncated`: `content-length: 48000`, 30000 bytes, then the connection closes;
 * - `/sse-cut`: three SSE deltas, then the connection closes without the final chunk;
 * - `/delay?ms=N`: 200 `ok` after N ms.
 */
export function route(req: http.IncomingMessage, res: http.ServerResponse, _seen: SeenRequest): void {
  const url = new URL(req.url ?? '/', 'http://x');
  switch (url.pathname) {
    case '/':
      res.writeHead(204).end();
      return;
    case '/chunks':
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-multi': ['1', '2'] });
      res.write('a');
      setImmediate(() => {
        res.write('bb');
        setImmediate(() => res.end('ccc'));
      });
      return;
    case '/echo': {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'none' });
        res.end(Buffer.concat(parts));
      });
      return;
    }
    case '/status/429':
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      res.end(
        JSON.stringify({
          error: {
            message: `Rate limited for ${req.headers.authorization}`,
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
        }),
      );
      return;
    case '/status/404':
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"Model not found"}');
      return;
    case '/big-error':
      res.writeHead(503, { 'content-type': 'text/plain', 'content-length': String(1024 * 1024) });
      res.end(Buffer.alloc(1024 * 1024, 'e'));
      return;
    case '/small-error':
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"warming up","type":"server_error"}}');
      return;
    case '/hold':
      return;
    case '/headers-only':
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.flushHeaders();
      return;
    case '/manual':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      manual.push(res);
      return;
    case '/ticker': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      res.write(`data: {"n":${n++}}\n\n`);
      const timer = setInterval(() => res.write(`data: {"n":${n++}}\n\n`), 50);
      res.socket?.on('close', () => clearInterval(timer));
      return;
    }
    case '/first-then-hold':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":0}\n\n');
      return;
    case '/truncated':
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': '48000' });
      res.write(Buffer.alloc(30_000, 1), () => res.socket?.end());
      return;
    case '/sse-cut':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"d":"a"}\n\ndata: {"d":"b"}\n\n');
      res.write('data: {"d":"c"}\n\n', () => res.socket?.end());
      return;
    case '/delay':
      setTimeout(() => res.writeHead(200).end('ok'), Number(url.searchParams.get('ms')));
      return;
    default:
      res.writeHead(500).end('unknown route');
  }
}
