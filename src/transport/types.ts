import type { AbortSource } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';
import type { CaCertificates } from './ca-certificates.js';

/**
 * Deadlines of one HTTP exchange, each in ms; omitted or 0 means none.
 * - `connectMs`: TCP (and TLS) connection established;
 * - `headersMs`: response status line and headers received (counted from the request start);
 * - `firstByteMs`: first body byte received (counted from the request start);
 * - `idleMs`: longest gap between two body chunks while the body is being read;
 * - `totalMs`: the whole exchange, until the body ends.
 * Each raises a TimeoutError whose `phase` is `connect`, `headers`, `first-chunk`, `idle` or `total`.
 */
export interface Deadlines {
  connectMs?: number;
  headersMs?: number;
  firstByteMs?: number;
  idleMs?: number;
  totalMs?: number;
}

/** One HTTP request through the transport. */
export interface HttpRequest {
  /** Name of the provider this goes to (errors name it). */
  provider: string;
  method: 'GET' | 'POST';
  url: string;
  /** Request headers. Secrets may be here; they never reach an error or log. */
  headers?: Record<string, string>;
  /** Request body: text, bytes, or a stream of bytes (sent with chunked transfer encoding). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal?: AbortSource;
  deadlines?: Deadlines;
  /**
   * Called once, with the status, when the response's final status is an error (not 2xx), as
   * soon as its headers arrive and before its body is read (within the error-body deadline,
   * see docs/transport.md): the answer is known, so a deadline waiting for the first chunk
   * may stand down. Not called for 2xx or 1xx.
   */
  onErrorStatus?: (status: number) => void;
}

/**
 * A response whose status is 2xx (error statuses are thrown as ProviderError by `request`).
 * `body` can be iterated once; the deadlines of the request apply while it is read. Breaking
 * out of the iteration, or `cancel()`, closes the connection.
 */
export interface HttpResponse {
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and closes the underlying connection (idempotent). */
  cancel(): Promise<void>;
  /**
   * Says the content is complete (its end marker, e.g. `[DONE]`, was read) while the body may
   * still be open: the body must now end within `ms`, or the connection is closed instead of
   * going back to the pool. Without it, a server that keeps the body open after its end marker
   * would hold the connection for as long as it likes. Idempotent; nothing once the body ended.
   */
  endWithin?(ms: number): void;
}

/** The HTTP transport every provider adapter uses. */
export interface HttpTransport {
  request(req: HttpRequest): Promise<HttpResponse>;
  /**
   * Opens a connection to `origin` ahead of use (keep-alive warmup). The transport of
   * {@link createHttpTransport} sends `OPTIONS /` and reads the answer, whatever its status.
   */
  preconnect?(origin: string, options?: PreconnectOptions): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link HttpTransport.preconnect}. */
export interface PreconnectOptions {
  /** Provider name used in errors. Default: the origin's host. */
  provider?: string;
  signal?: AbortSource;
  /** Deadline of the whole warmup exchange, in ms. Default: 10,000. */
  timeoutMs?: number;
  /** Deadline for the connection (TCP, TLS), in ms, where the wire can observe it. Default: none. */
  connectMs?: number;
}

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** Use this fetch instead of undici's `request` (e.g. the global one, so msw intercepts it). */
  fetch?: typeof globalThis.fetch;
  /**
   * undici (v7) dispatcher to use instead of the transport's own tuned Agent, e.g. one with
   * `connections: 1`. The transport never closes a dispatcher it was given. Ignored when `fetch` is set.
   */
  dispatcher?: unknown;
  /** Time source of every deadline. Default: the system clock (`performance.now()`). */
  clock?: Clock;
  /** TCP (and TLS) connect timeout of the transport's own Agent, in ms. Default: 10,000. */
  connectTimeoutMs?: number;
  /** How long an idle keep-alive socket of the transport's own Agent stays open, in ms. Default: 30,000. */
  keepAliveTimeoutMs?: number;
  /**
   * Extra CA certificates (PEM: a string, Buffer/Uint8Array, or an array of those; else, or when
   * an entry holds no PEM certificate that parses, a TypeError naming `ca` from createHttpTransport) the transport's own Agent trusts, in addition to Node's bundled
   * roots (see `tunedAgentOptions`). Ignored with `fetch` or `dispatcher`, and where the runtime's
   * fetch is the default (Bun). Default: none.
   */
  ca?: CaCertificates;
  /**
   * Body bytes the transport buffers ahead of a slow consumer before it stops reading the socket
   * (backpressure), in bytes. Default: 65,536.
   */
  maxBufferedBytes?: number;
  /**
   * Bytes of an error response's body read for its message; the rest is discarded by closing the
   * connection. Default: 65,536.
   */
  maxErrorBodyBytes?: number;
}
