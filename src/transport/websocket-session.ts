import { AbortError, ProviderError, TimeoutError, type VoxrouteError } from '../errors/index.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';
import { markRouterStall, STALL_TOLERANCE_MS } from '../internal/stall.js';
import { isRetryableStatus } from './classify.js';
import { excerpt } from './excerpt.js';
import { mapWireError } from './network-error.js';
import { redactSecrets } from './redact.js';
import { parseRetryAfter } from './retry-after.js';
import { closeError, isNormalClose } from './websocket-close.js';
import type { HandshakeRecord } from './websocket-handshake.js';
import { isOversized, oversizeError } from './websocket-message-size.js';
import { failedByClientError } from './websocket-sent-close.js';
import type { WebSocketClose, WebSocketConnection, WebSocketMessage } from './websocket-types.js';

/** The part of a WebSocket object (WHATWG API: undici's, Node's global, msw's) a session uses. */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
  removeEventListener(type: string, listener: (event: never) => void): void;
}

/** Inputs of a {@link WebSocketSession}. */
export interface SessionInit {
  socket: SocketLike;
  provider: string;
  /** The URL with its secret query values redacted, for messages. */
  shownUrl: string;
  /** Header-like record of every secret of the connection, removed from any message. */
  secrets: Record<string, string>;
  clock: Clock;
  signal?: AbortSource;
  connectMs: number;
  idleMs: number;
  /**
   * After we start a close (close(), abort, idle deadline), how long to wait for the server's
   * close frame before dropping the connection, in ms (0: wait forever).
   */
  closeTimeoutMs: number;
  /** Largest message accepted from the server, in bytes (0: no bound); see `oversizeError`. */
  maxMessageBytes?: number;
  /** What the handshake showed (status of a refused upgrade, network error). */
  handshake: HandshakeRecord;
  /** The header explaining a refused upgrade (see WebSocketConnectRequest.errorHeader). */
  errorHeader?: string;
}

type Waiter = {
  resolve(result: IteratorResult<WebSocketMessage>): void;
  reject(error: unknown): void;
};

/** How the message stream ends: normally (no error) or with `error`. */
type Ending = { error?: VoxrouteError };

const OPEN = 1;

type SessionState = 'connecting' | 'open' | 'closing' | 'closed';

/**
 * One WebSocket connection: listens to the socket from its creation, so that no message is
 * lost before the caller iterates; settles `opened` when the handshake completes or fails;
 * enforces the connect and idle deadlines on the injected clock; follows the caller's signal.
 * See `WebSocketConnection` for the contract.
 */
export class WebSocketSession implements WebSocketConnection {
  /** Resolves when the connection is open; rejects with the typed error of a failed connect. */
  readonly opened: Promise<void>;
  readonly closed: Promise<WebSocketClose>;

  private state: SessionState = 'connecting';
  private readonly queue: WebSocketMessage[] = [];
  private head = 0;
  private readonly waiters: Waiter[] = [];
  private ending: Ending | undefined;
  private finished = false;
  private idleMs: number;
  private idleTimer: unknown;
  /** When the armed idle deadline is due (clock ms), and whether it already fired late once. */
  private idleDue = 0;
  private idleStalled = false;
  private connectTimer: unknown;
  private closeTimer: unknown;
  private settleOpen!: { resolve(): void; reject(error: unknown): void };
  private resolveClosed!: (close: WebSocketClose) => void;
  private readonly iterator: AsyncIterableIterator<WebSocketMessage>;

  constructor(private readonly init: SessionInit) {
    this.idleMs = init.idleMs;
    this.opened = new Promise<void>((resolve, reject) => {
      this.settleOpen = { resolve, reject };
    });
    this.closed = new Promise<WebSocketClose>((resolve) => {
      this.resolveClosed = resolve;
    });
    const { socket, signal, clock } = init;
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('open', this.onOpen);
    socket.addEventListener('message', this.onMessage);
    socket.addEventListener('close', this.onClose);
    socket.addEventListener('error', this.onError);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (init.connectMs > 0) this.connectTimer = clock.setTimeout(this.onConnectTimeout, init.connectMs);
    this.iterator = {
      next: () => this.next(),
      return: () => {
        this.finished = true;
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  get bufferedAmount(): number {
    return this.init.socket.bufferedAmount;
  }

  send(data: string | Uint8Array): boolean {
    if (this.state !== 'open' || this.init.socket.readyState !== OPEN) return false;
    try {
      this.init.socket.send(data);
      return true;
    } catch {
      return false;
    }
  }

  messages(): AsyncIterable<WebSocketMessage> {
    return this.iterator;
  }

  close(code = 1000, reason = ''): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.end({});
    this.closeSocket(code, reason);
  }

  /**
   * Closes for good, because the transport is closing: a connection still connecting fails its
   * `opened` with AbortError; an open one starts the close handshake (as {@link close}).
   */
  shutdown(): void {
    if (this.state === 'connecting') {
      const { provider } = this.init;
      this.failConnect(new AbortError(`WebSocket to provider '${provider}' closed with its transport`));
    } else this.close();
  }

  /**
   * Changes the idle deadline (ms; 0: none) of `messages()`. If the caller is waiting for a
   * message now, the new deadline counts from now.
   */
  setIdleMs(ms: number): void {
    this.idleMs = ms;
    this.clearIdle();
    if (this.waiters.length > 0) this.armIdle();
  }

  /**
   * Refs or unrefs the underlying socket (see `WebSocketConnection.setRef`): the one kept from
   * undici's handshake, else the `ws` package's `_socket`. False when neither is there.
   */
  setRef(ref: boolean): boolean {
    const target = refTarget(this.init.handshake.socket) ?? refTarget(this.init.socket);
    if (!target) return false;
    if (ref) target.ref();
    else target.unref();
    return true;
  }

  private next(): Promise<IteratorResult<WebSocketMessage>> {
    const settled = this.take();
    if (settled) return settled;
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.waiters.length === 1) this.armIdle();
    });
  }

  /** The next result if one is ready (a queued message or the end), else undefined. */
  private take(): Promise<IteratorResult<WebSocketMessage>> | undefined {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head]!;
      this.queue[this.head++] = undefined as never;
      if (this.head > 64 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    if (this.ending) {
      this.finished = true;
      const { error } = this.ending;
      return error ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true });
    }
    return undefined;
  }

  /** Hands ready results to waiting callers. */
  private wake(): void {
    while (this.waiters.length > 0) {
      const ready = this.take();
      if (!ready) break;
      const waiter = this.waiters.shift()!;
      ready.then(waiter.resolve, waiter.reject);
    }
    this.clearIdle();
    if (this.waiters.length > 0) this.armIdle();
  }

  /** Sets how the message stream ends (first outcome wins) and stops following the signal. */
  private end(ending: Ending): void {
    if (!this.ending) this.ending = ending;
    this.detach();
    this.wake();
  }

  private closeSocket(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closing';
    const { socket, clock, closeTimeoutMs } = this.init;
    // A socket unref'd while it idled (a warm pooled socket) is ref'd again for its close: whoever
    // awaits `closed` (the transport's and the router's close()) must see it settle, and with
    // nothing ref'd the event loop would empty first (Node then exits with code 13, the code
    // after `await router.close()` never running). The socket keeps the loop alive until it
    // closes, so the (unref'd) close timer still fires when the server never answers.
    this.setRef(true);
    if (closeTimeoutMs > 0 && this.closeTimer === undefined) {
      this.closeTimer = clock.setTimeout(this.onCloseTimeout, closeTimeoutMs);
      (this.closeTimer as { unref?: () => void } | null)?.unref?.();
    }
    try {
      socket.close(code, reason);
    } catch {
      // A standard WebSocket accepts only 1000 and 3000-4999 from the application.
      try {
        socket.close();
      } catch {
        // Already closing.
      }
    }
  }

  private detach(): void {
    this.init.signal?.removeEventListener('abort', this.onAbort);
    this.clearIdle();
    if (this.connectTimer !== undefined) {
      this.init.clock.clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
    }
  }

  private armIdle(): void {
    if (this.idleMs > 0 && this.idleTimer === undefined && !this.ending) {
      this.idleDue = this.init.clock.now() + this.idleMs;
      this.idleStalled = false;
      this.idleTimer = this.init.clock.setTimeout(this.onIdleTimeout, this.idleMs);
    }
  }

  private clearIdle(): void {
    if (this.idleTimer === undefined) return;
    this.init.clock.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * Fails a connection that has not opened yet: rejects `opened`, drops the socket and ends the
   * session at once (`closed` resolves with 1006). There is no close handshake to wait for before
   * `open`, and a runtime may never report one: Node 22's global WebSocket fires no `close` for
   * a socket closed while connecting, which held `closed` (and so the transport's and the
   * router's `close()`) for the whole close timeout. The runtime closes its socket in the
   * background; an `error` it reports later is ignored.
   */
  private failConnect(error: VoxrouteError): void {
    if (this.state !== 'connecting') return;
    this.end({ error });
    this.settleOpen.reject(error);
    this.closeSocket(1000, '');
    // (A socket may have reported its close synchronously, inside close().)
    if ((this.state as SessionState) === 'closed') return;
    this.init.socket.addEventListener('error', ignore);
    this.onClose({ code: 1006, reason: '', wasClean: false });
  }

  private readonly onOpen = (): void => {
    if (this.state !== 'connecting') return;
    this.state = 'open';
    if (this.connectTimer !== undefined) {
      this.init.clock.clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
    }
    this.settleOpen.resolve();
  };

  private readonly onMessage = (event: { data: unknown }): void => {
    if (this.ending) return;
    const message = toMessage(event.data);
    if (!message) return;
    // (undici refuses such a message before reading it; a standard constructor hands it over.)
    const max = this.init.maxMessageBytes ?? 0;
    if (isOversized(message.data, max)) {
      this.end({ error: oversizeError(this.init.provider, max) });
      this.closeSocket(1009, 'Message Too Big');
      return;
    }
    this.queue.push(message);
    this.wake();
  };

  /**
   * After `open`, an error is followed by a close event, which carries the outcome. Before it,
   * the connect fails at once, as a close 1006 would: Node 22's global WebSocket fires only
   * `error` on a failed handshake (no `close`, readyState stays CONNECTING), which would
   * otherwise hold the connect until its deadline. A `close` that does follow (Node 24, undici)
   * finds the session closed and reports nothing more.
   */
  private readonly onError = (): void => {
    if (this.state !== 'connecting') return;
    this.onClose({ code: 1006, reason: '', wasClean: false });
    try {
      this.init.socket.close();
    } catch {
      // Already closed.
    }
  };

  private readonly onClose = (event: { code: number; reason: string; wasClean: boolean }): void => {
    const { socket } = this.init;
    if (this.closeTimer !== undefined) {
      this.init.clock.clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
    }
    socket.removeEventListener('open', this.onOpen);
    socket.removeEventListener('message', this.onMessage);
    socket.removeEventListener('close', this.onClose);
    socket.removeEventListener('error', this.onError);
    const code = event.code;
    const reason = event.reason ?? '';
    if (this.state === 'connecting') {
      const error = this.connectError(code, reason);
      this.state = 'closed';
      this.end({ error });
      this.settleOpen.reject(error);
    } else {
      const { provider, secrets, handshake, maxMessageBytes } = this.init;
      // undici failed the connection itself, writing a close frame, for what the provider sent:
      // 1009 a message past the bound, 1002 a malformed frame, 1007 invalid data.
      const sent = this.state === 'open' && code === 1006 ? handshake.sentClose : undefined;
      const failed = sent && failedByClientError(provider, sent);
      this.state = 'closed';
      if (sent?.code === 1009) this.end({ error: oversizeError(provider, maxMessageBytes ?? 0) });
      else if (failed) this.end({ error: failed });
      else this.end(isNormalClose(code) ? {} : { error: closeError(provider, code, reason, secrets) });
    }
    this.resolveClosed({ code, reason, wasClean: event.wasClean === true });
  };

  private readonly onAbort = (): void => {
    const error = new AbortError(`WebSocket to provider '${this.init.provider}' aborted`, {
      cause: this.init.signal?.reason,
    });
    if (this.state === 'connecting') this.failConnect(error);
    else if (this.state === 'open') {
      this.end({ error });
      this.closeSocket(1000, '');
    }
  };

  private readonly onConnectTimeout = (): void => {
    this.connectTimer = undefined;
    const { provider, connectMs } = this.init;
    this.failConnect(new TimeoutError('connect', connectMs, { provider }));
  };

  /**
   * The server did not answer our close frame in time: drop the TCP connection (undici: the
   * socket kept from the handshake; it then reports close 1006). Without that socket (a standard
   * constructor), `closed` resolves with 1006 and the socket is left to its runtime.
   */
  private readonly onCloseTimeout = (): void => {
    this.closeTimer = undefined;
    if (this.state === 'closed') return;
    const dropped = this.init.handshake.socket;
    if (dropped) dropped.destroy();
    else this.onClose({ code: 1006, reason: '', wasClean: false });
  };

  private readonly onIdleTimeout = (): void => {
    this.idleTimer = undefined;
    if (this.ending) return;
    // Fired late: the event loop was blocked (the router's own stall), and a message may be
    // waiting unread. One more turn first; if the deadline still passes, the error is marked
    // as the router's stall so the provider is not charged (src/internal/stall.ts).
    if (!this.idleStalled && this.init.clock.now() - this.idleDue > STALL_TOLERANCE_MS) {
      this.idleStalled = true;
      this.idleTimer = this.init.clock.setTimeout(this.onIdleTimeout, 0);
      return;
    }
    const { provider } = this.init;
    const error = new TimeoutError('idle', this.idleMs, { provider });
    this.end({ error: this.idleStalled ? markRouterStall(error) : error });
    this.closeSocket(1000, '');
  };

  /** The typed error of a handshake that failed (close before open). */
  private connectError(code: number, reason: string): VoxrouteError {
    const { provider, handshake, secrets, shownUrl, errorHeader } = this.init;
    const { status } = handshake;
    if (status !== undefined && status !== 101) {
      const headers = handshake.headers ?? {};
      const said = errorHeader === undefined ? undefined : headers[errorHeader];
      const detail = said ? `: ${excerpt(said, 200)}` : '';
      return new ProviderError(
        redactSecrets(
          `Provider '${provider}' refused the WebSocket upgrade to ${shownUrl}: HTTP ${status}${detail}`,
          secrets,
          provider,
        ),
        {
          provider,
          status,
          retryable: isRetryableStatus(status),
          retryAfterMs: parseRetryAfter(headers),
        },
      );
    }
    if (handshake.error !== undefined) {
      return mapWireError(handshake.error, { provider, stage: 'request', requestHeaders: secrets });
    }
    // A close frame before `open` (a standard WebSocket, or msw closing during the handshake).
    if (code !== 1006 && code !== 1005 && code !== 1000) return closeError(provider, code, reason, secrets);
    // A standard constructor shows no HTTP status: a refused upgrade (401...) looks like this too.
    const why =
      status === 101
        ? 'the handshake response was invalid'
        : `closed with code ${code} before it opened (no HTTP status: a refused upgrade, e.g. 401, cannot be told from a network failure)`;
    return new ProviderError(
      redactSecrets(`WebSocket to provider '${provider}' at ${shownUrl} failed: ${why}`, secrets, provider),
      { provider, retryable: true },
    );
  }
}

/** Swallows an event (an `error` reported after the session ended: the `ws` package throws unheard ones). */
function ignore(): void {}

/** A socket that can be ref'd and unref'd (net.Socket): `socket` itself, or the `ws` package's `_socket`. */
function refTarget(socket: unknown): { ref(): void; unref(): void } | undefined {
  for (const candidate of [socket, (socket as { _socket?: unknown } | undefined)?._socket]) {
    const target = candidate as { ref?: unknown; unref?: unknown } | null | undefined;
    if (typeof target?.ref === 'function' && typeof target.unref === 'function')
      return target as { ref(): void; unref(): void };
  }
  return undefined;
}

/** A text frame as a string; a binary frame (ArrayBuffer or a view of one) as a Uint8Array. */
function toMessage(data: unknown): WebSocketMessage | undefined {
  if (typeof data === 'string') return { type: 'text', data };
  if (data instanceof ArrayBuffer) return { type: 'binary', data: new Uint8Array(data) };
  if (ArrayBuffer.isView(data))
    return { type: 'binary', data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  return undefined;
}
