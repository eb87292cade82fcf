import type { Clock } from '../../../src/internal/clock.js';
import type { AttemptContext } from '../../../src/providers/types.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';
import type { WebSocketConnection, WebSocketTransport } from '../../../src/transport/websocket-types.js';

export { deferred } from '../../helpers/deferred.js';

/** An AttemptContext over the given transports. */
export function attemptOf(
  transport: HttpTransport,
  options: { webSocket?: WebSocketTransport; signal?: AbortSignal; deadlines?: Deadlines } = {},
): AttemptContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    deadlines: options.deadlines ?? { connectMs: 5000, headersMs: 5000, idleMs: 5000 },
    transport,
    ...(options.webSocket ? { webSocket: options.webSocket } : {}),
  };
}

/** A transport for tests that must not use HTTP. */
export const noHttp: HttpTransport = {
  request: () => Promise.reject(new Error('no HTTP in this test')),
  close: async () => {},
};

export { collect, collectUntilError, expectSameBytes } from '../../helpers/index.js';

/** The bytes of several chunks, joined. */
export function joined(chunks: { data: Uint8Array }[]): Buffer {
  return Buffer.concat(chunks.map((c) => c.data));
}

/** A Clock whose time moves only when the test calls `advance`. */
export class FakeClock implements Clock {
  private time = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers)
        if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }
}

/**
 * A WebSocket transport that forwards to `inner` and keeps every connection it opened, with
 * `canSendHeaders` as given (false: behaves like a standard WebSocket, and drops the headers).
 */
export function recordingWebSocket(
  inner: WebSocketTransport,
  canSendHeaders = true,
): WebSocketTransport & { connections: WebSocketConnection[]; urls: string[] } {
  const connections: WebSocketConnection[] = [];
  const urls: string[] = [];
  return {
    connections,
    urls,
    canSendHeaders,
    async connect(request) {
      urls.push(request.url);
      const { headers, ...rest } = request;
      const conn = await inner.connect(canSendHeaders && headers ? { ...rest, headers } : rest);
      connections.push(conn);
      return conn;
    },
  };
}

/** An async iterable of text pieces that waits on `gates[i]` (when given) before yielding piece i. */
export async function* gatedText(
  pieces: string[],
  gates: Array<Promise<void> | undefined> = [],
): AsyncGenerator<string> {
  for (let i = 0; i < pieces.length; i++) {
    const gate = gates[i];
    if (gate) await gate;
    yield pieces[i]!;
  }
}
