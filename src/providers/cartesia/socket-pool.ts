import type { Clock } from '../../internal/clock.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';
import type { AttemptContext } from '../types.js';
import { type CartesiaEndpoint, cartesiaSocketTarget } from './endpoint.js';
import { TtsSocket } from './tts-socket.js';

/**
 * Keeps one warm `/tts/websocket` connection of an adapter for the next call (PROTOCOLS.md 1.5:
 * long-lived connections lower latency). A call `acquire`s a socket for itself (the idle one if
 * it is still open, else a new connection: a socket that closed while idle is replaced before
 * use) and `release`s it when done. Only a socket whose context ended cleanly is kept; at most
 * one is kept, for `keepWarmMs` ms, after which it is closed. While idle, neither the socket
 * (unref'd where the transport can: `WebSocketConnection.setRef`) nor its timer keeps the
 * process alive: a process whose work is done exits without `router.close()`.
 * Concurrent calls each get their own socket.
 */
export class TtsSocketPool {
  private idle: TtsSocket | undefined;
  private timer: unknown;
  private closed = false;

  constructor(
    private readonly endpoint: CartesiaEndpoint,
    private readonly keepWarmMs: number,
    private readonly clock: Clock,
    private readonly transportOf: (attempt: AttemptContext) => Promise<WebSocketTransport>,
  ) {}

  /**
   * A socket for one call: the warm one when it is still usable, else a new connection through
   * the attempt's transport, with the attempt's connect deadline; the attempt's abort cancels
   * the connect only (the socket outlives the attempt). Rejects with what the transport's
   * `connect` rejects with (ProviderError with the HTTP status of a refused upgrade,
   * TimeoutError `connect`, AbortError).
   */
  async acquire(attempt: AttemptContext): Promise<{ socket: TtsSocket; reused: boolean }> {
    const warm = this.idle;
    this.idle = undefined;
    this.clearTimer();
    if (warm?.usable) {
      warm.setRef(true);
      return { socket: warm, reused: true };
    }
    warm?.close();
    const transport = await this.transportOf(attempt);
    const authInQuery = this.endpoint.authInQuery || transport.canSendHeaders === false;
    const target = cartesiaSocketTarget({ ...this.endpoint, authInQuery }, '/tts/websocket');
    const connecting = new AbortController();
    const onAbort = () => connecting.abort(attempt.signal.reason);
    if (attempt.signal.aborted) onAbort();
    else attempt.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const connection = await transport.connect({
        provider: this.endpoint.provider,
        url: target.url,
        headers: target.headers,
        signal: connecting.signal,
        ...(attempt.deadlines.connectMs ? { deadlines: { connectMs: attempt.deadlines.connectMs } } : {}),
      });
      return { socket: new TtsSocket(connection, this.endpoint.provider), reused: false };
    } finally {
      attempt.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Gives a socket back: kept warm when `reusable`, still usable, warmth is wanted and no other
   * socket is kept; closed otherwise.
   */
  release(socket: TtsSocket, reusable: boolean): void {
    if (!reusable || this.closed || this.keepWarmMs <= 0 || !socket.usable || this.idle) {
      socket.close();
      return;
    }
    this.idle = socket;
    // An idle socket must not keep the process alive (no call waits on it), nor its timer.
    socket.setRef(false);
    const timer = this.clock.setTimeout(() => {
      if (this.idle !== socket) return;
      this.idle = undefined;
      this.timer = undefined;
      socket.close();
    }, this.keepWarmMs);
    (timer as { unref?: () => void } | null)?.unref?.();
    this.timer = timer;
  }

  /** Closes the warm socket; later releases close their sockets. */
  close(): void {
    this.closed = true;
    this.clearTimer();
    this.idle?.close();
    this.idle = undefined;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
