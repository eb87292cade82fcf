import type { AttemptContext } from '../../../src/providers/types.js';
import type { Deadlines, HttpRequest, HttpTransport } from '../../../src/transport/types.js';

export {
  chunksOf as fromChunks,
  collect,
  collectUntilError,
  type LoopbackRequest as RecordedRequest,
  type LoopbackServer,
  sendJson,
  sendSse,
  startLoopbackServer as startServer,
} from '../../helpers/index.js';

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
