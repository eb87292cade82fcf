import type { Dispatcher } from 'undici';
import type { AbortSource } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';
import type { CaCertificates } from './ca-certificates.js';

/** A message received on a WebSocket: a text frame, or a binary frame's bytes. */
export type WebSocketMessage = { type: 'text'; data: string } | { type: 'binary'; data: Uint8Array };

/** How a WebSocket closed: the close code (RFC 6455 §7.4) and reason. */
export interface WebSocketClose {
  code: number;
  reason: string;
  /** True when the close handshake completed (false for 1006, an abnormal close). */
  wasClean: boolean;
}

/**
 * Deadlines of one WebSocket connection, in ms; omitted or 0 means none.
 * - `connectMs`: the opening handshake completes (TimeoutError phase `connect`);
 * - `idleMs`: longest silence from the server while `messages()` is being read and the
 *   caller is waiting for something (TimeoutError phase `idle`); re-armed by every message.
 */
export interface WebSocketDeadlines {
  connectMs?: number;
  idleMs?: number;
}

/** One WebSocket connection to open. */
export interface WebSocketConnectRequest {
  /** Name of the provider (errors name it). */
  provider: string;
  /** `ws:` or `wss:` URL, query included. Secrets in the query never reach an error or log. */
  url: string;
  /** Headers of the opening handshake (e.g. `Authorization`). Secrets never reach an error or log. */
  headers?: Record<string, string>;
  /** Subprotocols to offer. */
  protocols?: string[];
  /** Aborting closes the connection (code 1000) and makes `messages()` throw AbortError. */
  signal?: AbortSource;
  deadlines?: WebSocketDeadlines;
  /**
   * Name (lower-case) of a response header in which the provider explains a refused upgrade,
   * e.g. Deepgram's `dg-error`: its value (secrets removed, at most 200 characters) ends the
   * refused upgrade's ProviderError message. Only readable where the transport sees the
   * handshake's headers (undici's WebSocket, the default in Node).
   */
  errorHeader?: string;
}

/** An open WebSocket connection. */
export interface WebSocketConnection {
  /**
   * Sends a text or binary frame. Returns false, sending nothing, when the connection is no
   * longer open (never throws into an already-closed socket); the close itself is
   * reported by `messages()`.
   */
  send(data: string | Uint8Array): boolean;
  /**
   * The server's messages, in order, as one async iterable per connection (iterate it once;
   * the connection buffers what arrives before the caller reads). It ends normally on a close
   * with code 1000 (or 1005); it throws ProviderError with `status` = the close code for any
   * other close (see `closeError`: a 1008 policy violation by its reason, `policyCloseVerdict`;
   * 1011, 1012, 1013, 1006: retryable), TimeoutError for a passed deadline, AbortError when the signal aborted.
   */
  messages(): AsyncIterable<WebSocketMessage>;
  /** Starts the close handshake (default code 1000). Idempotent. */
  close(code?: number, reason?: string): void;
  /** True until a close starts. */
  readonly isOpen: boolean;
  /** Resolves when the connection has closed, however it closed. */
  readonly closed: Promise<WebSocketClose>;
  /** Bytes queued to send and not yet handed to the network (WebSocket.bufferedAmount). */
  readonly bufferedAmount: number;
  /**
   * Changes the idle deadline of `messages()` (ms; 0: none), e.g. 0 while the caller expects
   * nothing from the server (an STT socket during a long silence) and back when it does. If the
   * caller is waiting for a message, the new deadline counts from now. Optional member:
   * `createWebSocketTransport`'s connections always have it.
   */
  setIdleMs?(ms: number): void;
  /**
   * Whether the connection keeps the Node.js process alive (`ref`, the default) or not
   * (`unref`, e.g. while it waits idle in a pool for the next call). Done on the underlying
   * TCP/TLS socket when it can be reached (undici's constructor, the `ws` package); returns
   * false, changing nothing, when it cannot. A close (`close()`, an abort, a deadline, the
   * transport's `close()`) refs the socket again, so that `closed` settles (by the close
   * timeout at worst) even in a process with nothing else to do. Optional member:
   * `createWebSocketTransport`'s connections always have it.
   */
  setRef?(ref: boolean): boolean;
}

/** Opens WebSocket connections for provider adapters. */
export interface WebSocketTransport {
  /**
   * Opens a connection. Rejects with ProviderError (status = the HTTP status when the server
   * refused the upgrade, e.g. 401; network errors retryable), TimeoutError (`connect`), or
   * AbortError.
   */
  connect(request: WebSocketConnectRequest): Promise<WebSocketConnection>;
  /**
   * False when the transport cannot send handshake headers (a standard WebSocket constructor):
   * adapters must then authenticate through the query string or a first message, as the
   * provider allows. Absent or true: `headers` are sent.
   */
  readonly canSendHeaders?: boolean;
  /**
   * Closes every connection this transport opened that is still open, connecting or closing
   * (close frame 1000), and resolves once each has closed: the server answered the close
   * frame, or `closeTimeoutMs` passed and the TCP connection was dropped. Later `connect()`
   * calls reject with AbortError. Optional, for transports supplied by the caller.
   */
  close?(): Promise<void>;
}

/** Options of `createWebSocketTransport`. */
export interface WebSocketTransportOptions {
  /**
   * A WebSocket constructor to use instead of undici's (e.g. `globalThis.WebSocket`, so msw's
   * `ws` API can intercept it). undici's constructor accepts handshake `headers`; a standard one
   * cannot send headers, so adapters that need them put credentials where the provider allows
   * (query string) when `headers` cannot be sent.
   */
  WebSocket?: typeof globalThis.WebSocket;
  /**
   * Use `globalThis.WebSocket` as it is at each `connect()` (a standard constructor: no handshake
   * headers), so that an interceptor installed after the transport was created (msw's
   * `setupServer().listen()`) applies. Default: false.
   */
  useGlobalWebSocket?: boolean;
  /** undici dispatcher of the default (undici) constructor. Default: undici's global dispatcher. */
  dispatcher?: Dispatcher;
  /**
   * Extra CA certificates (PEM: a string, Buffer/Uint8Array, or an array of those; else, or when
   * an entry holds no PEM certificate that parses, a TypeError naming `ca` from
   * createWebSocketTransport) to trust for `wss://`, in addition to Node's bundled roots: the
   * default (undici) constructor then connects through an undici Agent of the transport's own
   * whose `connect.ca` holds both. Ignored with `dispatcher`, `WebSocket` or
   * `useGlobalWebSocket`. Default: none.
   */
  ca?: CaCertificates;
  /**
   * After voxroute starts a close (`close()`, abort, idle deadline), how long to wait for the
   * server's close frame before dropping the TCP connection, in ms; `closed` then resolves with
   * 1006. 0: wait forever. Default: 5000.
   */
  closeTimeoutMs?: number;
  /**
   * Largest message (text frame in UTF-8, or binary frame; fragments counted together) accepted
   * from a server, in bytes; a larger one ends `messages()` with a ProtocolError (retryable: the
   * router falls back) and closes the connection. 0: no bound of voxroute's (the constructor's
   * own). Default: 16 MiB (`MAX_MESSAGE_BYTES`; see docs/decisions.md).
   */
  maxMessageBytes?: number;
  /**
   * TCP (and TLS) connect timeout of the transport's own undici connector, in ms: a backstop
   * behind the connect deadline of each `connect()`, so keep it longer than those. Ignored with
   * `dispatcher`, `WebSocket` or `useGlobalWebSocket`. Default: 10,000.
   */
  connectTimeoutMs?: number;
  /** Clock of the connect, idle and close deadlines. Default: the system clock. */
  clock?: Clock;
}
