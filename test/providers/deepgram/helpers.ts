import type { AttemptContext } from '../../../src/providers/types.js';
import type { Delay } from '../../../src/testing/delay.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';
import type { WebSocketTransport } from '../../../src/transport/websocket-types.js';
import type { FakeClock } from '../../transport/fake-clock.js';

/** The API key every Deepgram test uses; it must never appear in an error message. */
export const KEY = 'dg-secret-key-0123456789';

/** An AttemptContext over `transport` (and `webSocket`). */
export function attemptOf(
  transport: HttpTransport,
  options: { signal?: AbortSignal; deadlines?: Deadlines; webSocket?: WebSocketTransport } = {},
): AttemptContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    deadlines: options.deadlines ?? { connectMs: 5000, headersMs: 5000, idleMs: 5000 },
    transport,
    ...(options.webSocket ? { webSocket: options.webSocket } : {}),
  };
}

/** A Delay for the mock driven by `clock` (so one fake clock drives both the adapter and the mock). */
export function clockDelay(clock: FakeClock): Delay {
  return (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const handle = clock.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clock.clearTimeout(handle);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
}

/** An audio source the test feeds: `push` chunks, then `end()` (or `fail(error)`). */
export class AudioFeed implements AsyncIterable<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private ended = false;
  private error: unknown;
  private wake: (() => void) | undefined;
  /** True once the consumer returned the iterator (stopped reading). */
  returned = false;
  private onReturned: (() => void) | undefined;
  /** Resolves once the consumer returned the iterator. */
  readonly whenReturned = new Promise<void>((resolve) => {
    this.onReturned = resolve;
  });

  push(...chunks: Uint8Array[]): void {
    this.queue.push(...chunks);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  fail(error: unknown): void {
    this.error = error;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.error !== undefined) throw this.error;
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      this.returned = true;
      this.onReturned?.();
    }
  }
}

/** `bytes` cut in pieces of `size` bytes. */
export function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export { collect, collectUntilError, concatBytes as concat } from '../../helpers/index.js';

/**
 * A WebSocket transport that records every frame the adapter sends through `inner` (text as the
 * string, binary as its byte length), so a test can check synchronously what went out.
 */
export function recordingWebSocket(inner: WebSocketTransport): {
  transport: WebSocketTransport;
  sent: Array<string | number>;
} {
  const sent: Array<string | number> = [];
  const transport: WebSocketTransport = {
    ...(inner.canSendHeaders === undefined ? {} : { canSendHeaders: inner.canSendHeaders }),
    async connect(request) {
      const conn = await inner.connect(request);
      return new Proxy(conn, {
        get(target, property) {
          if (property === 'send') {
            return (data: string | Uint8Array) => {
              sent.push(typeof data === 'string' ? data : data.byteLength);
              return target.send(data);
            };
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === 'function'
            ? (value as (...args: unknown[]) => unknown).bind(target)
            : value;
        },
      });
    },
  };
  return { transport, sent };
}
