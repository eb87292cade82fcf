import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, sendApiError } from './api-error.js';

/**
 * Scripted failures for the demo, applied to every request (including `/health`):
 * - `none`: serve normally;
 * - `503`: answer 503 at once with `Retry-After: 1` and an OpenAI error body
 *   (type `server_error`, code `service_unavailable`), as an overloaded server does;
 * - `stall`: send 200 headers (the route's usual content type), then nothing, until the client
 *   gives up or the server closes;
 * - `reset`: reset the TCP connection (RST) before any response byte.
 */
export type FailMode = 'none' | '503' | 'stall' | 'reset';

/** Every {@link FailMode}, for argument checking. */
export const FAIL_MODES: readonly FailMode[] = ['none', '503', 'stall', 'reset'];

function contentTypeFor(pathname: string): string {
  if (pathname.endsWith('/audio/speech')) return 'audio/wav';
  if (pathname.endsWith('/chat/completions') || pathname.endsWith('/audio/transcriptions')) {
    return 'text/event-stream; charset=utf-8';
  }
  return 'application/json';
}

/**
 * Applies `mode` to one request. Returns true when it took the request over (the caller must
 * not answer it), false for `none`.
 */
export function applyFailMode(
  mode: FailMode,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): boolean {
  switch (mode) {
    case 'none':
      return false;
    case '503':
      req.resume();
      sendApiError(
        res,
        new ApiError(503, 'The server is temporarily unavailable (scripted failure mode 503). Retry later.', {
          code: 'service_unavailable',
          headers: { 'retry-after': '1' },
        }),
      );
      return true;
    case 'stall':
      req.resume();
      res.writeHead(200, { 'content-type': contentTypeFor(pathname) });
      res.flushHeaders();
      return true;
    case 'reset':
      req.socket.resetAndDestroy();
      return true;
  }
}
