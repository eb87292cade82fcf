import type { ServerResponse } from 'node:http';
import { writeWithBackpressure } from './drain.js';

/**
 * Sends the 200 headers of a Server-Sent Events stream (`text/event-stream; charset=utf-8`,
 * no caching, `X-Accel-Buffering: no` so a reverse proxy such as nginx does not buffer it).
 */
export function openSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
}

/**
 * Writes one `data:`-only SSE event (PROTOCOLS.md 2.2: no event names): `data: <json>\n\n`,
 * or `data: <text>\n\n` when `data` is a string such as `[DONE]`. Resolves once the socket
 * can take more (waits for `drain` under backpressure), or at once if the response closed.
 */
export async function writeSse(res: ServerResponse, data: unknown): Promise<void> {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  await writeWithBackpressure(res, `data: ${text}\n\n`);
}
