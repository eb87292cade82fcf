import WebSocket from 'ws';

/** A `ws` client of the mock, recording what the server sends. */
export interface TestClient {
  ws: WebSocket;
  /** Server text messages, parsed as JSON when they parse, else the raw text. */
  messages: unknown[];
  /** Resolves with the close code and reason once the socket closed. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once at least `count` messages arrived (rejects if the socket closes first). */
  until(count: number): Promise<void>;
  sendJson(value: unknown): void;
}

/**
 * Opens a `ws` client to `url`; resolves once open, rejects with the HTTP status of a refused
 * upgrade as `Error('status <n>')`.
 */
export function openClient(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
) {
  return new Promise<TestClient>((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    const messages: unknown[] = [];
    const waiters: Array<{ count: number; resolve(): void; reject(e: Error): void }> = [];
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      ws.on('close', (code, reason) => {
        done({ code, reason: reason.toString('utf8') });
        for (const w of waiters.splice(0)) {
          if (messages.length >= w.count) w.resolve();
          else w.reject(new Error(`closed after ${messages.length} messages`));
        }
      });
    });
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      try {
        messages.push(JSON.parse(text));
      } catch {
        messages.push(text);
      }
      for (const w of [...waiters]) {
        if (messages.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => reject(Object.assign(new Error(`status ${res.statusCode}`), { body })));
    });
    ws.on('error', () => {});
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        until(count) {
          if (messages.length >= count) return Promise.resolve();
          return new Promise<void>((ok, fail) => waiters.push({ count, resolve: ok, reject: fail }));
        },
        sendJson: (value) => ws.send(JSON.stringify(value)),
      }),
    );
  });
}
