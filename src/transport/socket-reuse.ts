import { subscribe } from 'node:diagnostics_channel';
import { errorCode } from './network-error.js';

/**
 * The part of a socket (net.Socket, tls.TLSSocket) this module reads. `bytesRead` counts the
 * bytes read from the peer (for TLS, the decrypted bytes: handshake and alerts do not count), and
 * keeps its last value after the socket closed.
 */
export interface SocketLike {
  readonly bytesRead: number;
  /** True once the socket was destroyed (net.Socket's own). */
  readonly destroyed?: boolean;
  /** Destroys the socket with `error` (net.Socket's own). */
  destroy?(error?: Error): unknown;
}

/**
 * A request waiting to learn the socket its headers go out on (see {@link watchNextSend}).
 * `path` and `method` are those given to `Dispatcher.dispatch`, to check that the headers being
 * sent are this request's.
 */
export interface SocketWatch {
  readonly path: string;
  readonly method: string;
  /**
   * Called synchronously as undici writes the request's headers.
   * @param socket The connection the request goes out on.
   * @param reused True when an earlier request (any undici request in this process, seen since
   *   this module subscribed) was written on the same socket: a pooled keep-alive connection.
   */
  onSocket(socket: SocketLike, reused: boolean): void;
}

/**
 * undici's diagnostics channel published as a request's headers are written to a socket, with
 * `{ request, headers, socket }` (undici docs, "Diagnostics Channel": `undici:client:sendHeaders`).
 * Channels are global by name, so every undici copy in the process (also Node's own, under the
 * global fetch) publishes here.
 */
const SEND_HEADERS = 'undici:client:sendHeaders';

/** Every socket a request was written on; a socket seen again is a reused one. */
const seenSockets = new WeakSet<object>();
/** The request whose headers undici is about to write (set in its `onRequestStart`). */
let armed: SocketWatch | undefined;
let subscribed = false;

/**
 * Starts tracking, once per process, which sockets undici has written requests on, by
 * subscribing to undici's `undici:client:sendHeaders` diagnostics channel. undici's dispatch API
 * does not tell a handler which connection its request went out on, or whether that connection
 * served requests before; this channel is the one place undici names the socket of a request.
 *
 * Cost: undici allocates one small message object per request while a subscriber exists, and
 * this module does one WeakSet lookup per request. Nothing per body chunk. The subscription is
 * never removed (it is shared by every transport of the process). Sockets that served requests
 * before the subscription count as fresh the first time they are seen here (conservative: a
 * reset there is then not retried).
 */
export function trackSocketReuse(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe(SEND_HEADERS, onSendHeaders);
}

/**
 * Arms `watch` to receive the socket of the request headers undici writes next. Call it from
 * the handler's `onRequestStart`: undici writes the headers synchronously right after calling it
 * (undici `client-h1.js` `writeH1`, `client-h2.js` `writeH2`), so no other request can come in
 * between. A later arming replaces an earlier one; headers of another path or method disarm it.
 */
export function watchNextSend(watch: SocketWatch): void {
  armed = watch;
}

/** Disarms `watch` if it is still armed (its request was aborted before its headers went out). */
export function unwatch(watch: SocketWatch): void {
  if (armed === watch) armed = undefined;
}

function onSendHeaders(message: unknown): void {
  const { request, socket } = message as { request?: { path?: unknown; method?: unknown }; socket?: unknown };
  if (typeof socket !== 'object' || socket === null) return;
  const reused = seenSockets.has(socket);
  if (!reused) seenSockets.add(socket);
  const watch = armed;
  if (watch === undefined) return;
  armed = undefined;
  if (request?.path === watch.path && request.method === watch.method) {
    watch.onSocket(socket as SocketLike, reused);
  }
}

/**
 * Error codes of a connection reset or closed by the peer: `ECONNRESET` (TCP RST), `EPIPE`
 * (writing to a socket the peer closed), and undici's `UND_ERR_SOCKET` (e.g. "other side
 * closed": a FIN where a response was expected).
 */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** True when `error` (or its cause) is a connection reset or closed by the peer ({@link RESET_CODES}). */
export function isConnectionReset(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && RESET_CODES.has(code);
}
