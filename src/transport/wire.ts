import type { HttpRequest } from './types.js';

/** An HTTP request as a wire sends it: {@link HttpRequest}, plus `OPTIONS` for preconnect. */
export interface WireRequest extends Omit<HttpRequest, 'method'> {
  method: HttpRequest['method'] | 'OPTIONS' | 'HEAD';
}

/**
 * What a wire (the part that differs between undici and fetch) reports to the exchange that
 * owns deadlines, cancellation and error mapping. Calls after the exchange settled are ignored.
 */
export interface WireSink {
  /** A connection is ready and the request is being written (undici only: fetch cannot tell). */
  onConnected(): void;
  /**
   * Status line and headers received; header names lower-case. An informational response
   * (1xx but 101) may be reported before the final one: the exchange skips it.
   */
  onHeaders(status: number, headers: Record<string, string>): void;
  /** Body bytes arrived from the socket. The wire may deliver more until `pause()` takes effect. */
  onData(chunk: Uint8Array): void;
  /** The body ended as the HTTP framing says it should. */
  onEnd(): void;
  /**
   * The request or the body failed (raw client error; the exchange maps it).
   * @param reusedSocketReset True when it is a reset of a reused keep-alive socket before any
   *   response byte that the wire could not retry (undici wire only). Default: false.
   */
  onError(error: unknown, reusedSocketReset?: boolean): void;
}

/** How the exchange steers a wire. */
export interface WireControl {
  /** Stop reading the socket (backpressure) until `resume()`. */
  pause(): void;
  resume(): void;
  /** Close the connection now (destroys the socket); idempotent. */
  abort(reason: Error): void;
}

/** One way of sending HTTP requests: undici's dispatcher, or a fetch. */
export interface Wire {
  /** True when the wire reports `onConnected`, so that a connect deadline can be told apart. */
  readonly observesConnect: boolean;
  /** True on the fetch path: errors are mapped by the Fetch standard's rules, bodies may be decoded. */
  readonly isFetch: boolean;
  /** Starts one exchange; returns its control at once (sink events may already have fired). */
  start(request: WireRequest, sink: WireSink): WireControl;
  /** Forgets what the wire kept of past requests (e.g. parsed URLs, which may hold a key); the transport's close() calls it. */
  close?(): void;
}
