import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { withoutStackFrames } from '../internal/without-stack-frames.js';
import type { ConnectClaim, PendingConnects } from './pending-connects.js';
import {
  isConnectionReset,
  type SocketLike,
  type SocketWatch,
  trackSocketReuse,
  unwatch,
  watchNextSend,
} from './socket-reuse.js';
import type { Wire, WireControl, WireRequest, WireSink } from './wire.js';

/**
 * The default wire: undici's `Dispatcher.dispatch` with a handler of undici's v7 handler API,
 * the layer that undici's `request()` itself is built on. Body chunks go straight from the
 * socket parser to the exchange (no Readable stream in between), backpressure is undici's own
 * `pause()`/`resume()`, and `onRequestStart` tells when a connection was ready, which gives the
 * connect deadline its meaning. Each request sets `headersTimeout: 0` and `bodyTimeout: 0`, so
 * no dispatcher default (undici's is 300 s) can cut a call before the SDK's deadlines.
 * A reset of a reused keep-alive socket before any response byte is retried, transparently,
 * when the body can be sent again (see `UndiciHandler` below and docs/transport.md); creating the
 * wire starts the process-wide socket tracking of {@link trackSocketReuse}.
 *
 * With `connects` (the pending connects of the dispatcher's own connector), a request aborted
 * (by its caller or a deadline) while its connection is still being opened destroys that
 * connection's socket at once, in the middle of its TCP or TLS handshake; undici itself would
 * leave the handshake running until its connect timeout.
 *
 * @param dispatcher An undici v7 Dispatcher (Agent, Pool, Client).
 * @param connects The pending connects of `dispatcher`'s connector, when the transport built it
 *   (see {@link PendingConnects}). Default: none (a caller's dispatcher: its connects are its own).
 * @param freshConnection Opens a one-off dispatcher (an undici Client of one connection) to an
 *   origin, on the same connector as `dispatcher`: the retry of a reused-socket reset goes out on
 *   it, never on another pooled socket. Default: none (a caller's dispatcher, whose connector the
 *   transport does not know: the retry then goes through `dispatcher`; see `UndiciHandler`).
 */
export function undiciWire(
  dispatcher: Dispatcher,
  connects?: PendingConnects,
  freshConnection?: FreshConnection,
): UndiciWire {
  trackSocketReuse();
  const parsedUrls = new Map<string, ParsedUrl>();
  const target: DispatchTarget = { dispatcher, connects, freshConnection };
  return {
    observesConnect: true,
    isFetch: false,
    parsedUrls,
    start: (request, sink) => start(target, parsedUrls, request, sink),
    close: () => parsedUrls.clear(),
  };
}

/**
 * Opens a one-off dispatcher to `origin` (a URL's `origin`): one new connection, for one request.
 * The wire calls its `close()` right after dispatching that request, so the connection closes
 * once the request has ended (undici's `close()` waits for dispatched requests).
 */
export type FreshConnection = (origin: string) => Pick<Dispatcher, 'dispatch' | 'close'>;

/** Where a wire's requests go: shared by all its exchanges (see {@link undiciWire}). */
interface DispatchTarget {
  readonly dispatcher: Dispatcher;
  readonly connects: PendingConnects | undefined;
  readonly freshConnection: FreshConnection | undefined;
}

/** The undici wire, with its parsed URLs to be seen by tests. */
export interface UndiciWire extends Wire {
  /**
   * Request URLs parsed so far (an adapter sends every request of an endpoint to the same few
   * URLs): at most 256, then it starts again. A URL may hold a key (`?api_key=`, `?key=`, userinfo),
   * so this is the transport's own, emptied by `close()`, never shared by the process.
   */
  readonly parsedUrls: ReadonlyMap<string, ParsedUrl>;
  close(): void;
}

/** The dispatch origin and path (with the query) of a request URL. */
interface ParsedUrl {
  origin: string;
  path: string;
}

function start(
  target: DispatchTarget,
  parsedUrls: Map<string, ParsedUrl>,
  request: WireRequest,
  sink: WireSink,
): WireControl {
  let options: Dispatcher.DispatchOptions;
  try {
    const url = originAndPath(parsedUrls, request.url);
    options = {
      origin: url.origin,
      path: url.path,
      method: request.method,
      headers: request.headers ?? null,
      // undici also takes an AsyncIterable<Uint8Array> body (sent chunked); its types omit it.
      body: (request.body ?? null) as string | Uint8Array | null,
      headersTimeout: 0,
      bodyTimeout: 0,
    };
  } catch (error) {
    sink.onError(error);
    return NO_CONTROL;
  }
  const handler = new UndiciHandler(target, options, sink);
  handler.dispatch(target.dispatcher);
  return handler;
}

/**
 * The handler of one exchange, for its first dispatch and its retries.
 *
 * Reused-socket reset retry: a pooled keep-alive connection can be closed by the server (its
 * idle timeout, a load balancer's idle reset, a restart) just as a request is written on it; the
 * request then fails with a reset before any response byte although the provider is fine. When
 * that happens on a socket that had served an earlier request ({@link trackSocketReuse}), no byte
 * of the response was read from it, the exchange was not aborted, and the body can be sent again
 * (none, a string or a Uint8Array; not an AsyncIterable, which was consumed), the request is
 * dispatched again, transparently: the exchange sees neither the failure nor the retry (its
 * deadlines keep running).
 * - With `freshConnection` (the transport's own Agent), the retry goes out on a connection opened
 *   for it (a one-off Client, closed once the retry ended), never on another pooled socket:
 *   whatever dropped one idle socket (a load balancer, a restarted server) has usually dropped
 *   every idle socket of the origin at once. Its failure is the provider's failure.
 * - Without it (a caller's dispatcher), the retry goes through the dispatcher, which may pick
 *   another idle pooled socket; each one found dead this way is retried again, at most
 *   {@link MAX_REUSED_RETRIES} times.
 * Any other failure reaches the exchange as usual: a reset of a fresh connection (the provider's
 * failure), and a retry's own failure. A reset of a reused socket that is not retried (a
 * streamed body, or the last retry through a caller's dispatcher met a dead reused socket too)
 * reaches it with `reusedSocketReset`, so that the router does not count it against the provider.
 *
 * Hot path: nothing per body chunk; per request one `onSocket` call. A one-off Client is created
 * only for a retry.
 */
class UndiciHandler implements Dispatcher.DispatchHandler, WireControl, SocketWatch {
  readonly path: string;
  readonly method: string;
  private readonly target: DispatchTarget;
  private readonly options: Dispatcher.DispatchOptions;
  private readonly sink: WireSink;
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private socket: SocketLike | undefined;
  private reused = false;
  private bytesReadAtSend = 0;
  private retries = 0;
  /** True once the response ended or failed: the socket may serve another request now. */
  private settled = false;
  /** This dispatch's wait for a connection, while it has none (with `connects` only). */
  private claim: ConnectClaim | undefined;

  constructor(target: DispatchTarget, options: Dispatcher.DispatchOptions, sink: WireSink) {
    this.target = target;
    this.options = options;
    this.sink = sink;
    this.path = options.path;
    this.method = options.method;
  }

  /** Dispatches the request on `dispatcher`; a synchronous throw reaches the sink. */
  dispatch(dispatcher: Pick<Dispatcher, 'dispatch'>): void {
    try {
      const connects = this.target.connects;
      if (connects) {
        const claim = connects.claim(String(this.options.origin));
        this.claim = claim;
        connects.dispatching(claim, () => dispatcher.dispatch(this.options, this));
      } else {
        dispatcher.dispatch(this.options, this);
      }
    } catch (error) {
      this.releaseClaim();
      this.sink.onError(error);
    }
  }

  /** The wait for a connection is over (connected, or failed): nothing of it is to be destroyed. */
  private releaseClaim(): void {
    const claim = this.claim;
    if (claim) {
      this.claim = undefined;
      this.target.connects?.release(claim);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.releaseClaim();
    if (this.abortReason) {
      const reason = this.abortReason;
      withoutStackFrames(() => controller.abort(reason));
      return;
    }
    // undici writes the headers right after this returns: learn their socket.
    watchNextSend(this);
    this.sink.onConnected();
    if (this.abortReason) unwatch(this);
  }

  onSocket(socket: SocketLike, reused: boolean): void {
    this.socket = socket;
    this.reused = reused;
    this.bytesReadAtSend = socket.bytesRead;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    this.sink.onHeaders(status, flattenHeaders(headers));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.sink.onData(chunk);
  }

  onResponseEnd(): void {
    this.settled = true;
    this.sink.onEnd();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.settled = true;
    unwatch(this);
    this.releaseClaim();
    const reusedSocketReset = this.isReusedSocketReset(error);
    if (reusedSocketReset && this.retries < MAX_REUSED_RETRIES && isReplayable(this.options.body)) {
      this.retries++;
      this.controller = undefined;
      this.socket = undefined;
      this.reused = false;
      // The retry is a request of its own: its socket is closed on abort as the first one's was.
      this.settled = false;
      // Out of undici's error callback, so that the retry does not re-enter the closing client.
      queueMicrotask(this.retry);
      return;
    }
    this.sink.onError(error, reusedSocketReset);
  }

  pause(): void {
    this.controller?.pause();
  }

  resume(): void {
    this.controller?.resume();
  }

  abort(reason: Error): void {
    if (this.abortReason) return;
    this.abortReason = reason;
    // Before onRequestStart the request is still queued: it is aborted as soon as it starts.
    // No stack frames for undici's errors of the socket's destroy: see withoutStackFrames.
    const controller = this.controller;
    if (controller) {
      withoutStackFrames(() => {
        this.closeSocket();
        controller.abort(reason);
      });
      return;
    }
    // Its connection is still being opened (TCP or TLS handshake): destroy that socket now, or
    // it stays open until undici's connect timeout. undici then fails the queued request.
    const claim = this.claim;
    const connects = this.target.connects;
    if (claim && connects) {
      this.claim = undefined;
      withoutStackFrames(() => connects.cancel(claim, reason));
    }
  }

  /**
   * Closes the socket of this running request on the transport's own Agent, before undici's
   * abort does: undici (7.x; nodejs/undici#5845) destroys an aborted request's socket with an
   * informational error, which puts the request back in its Client's queue as pending, so that
   * at the socket's close the Client opens a new connection for it, only to drop it there (it
   * was aborted). Every barge-in would cost one more TCP (and TLS) handshake to a connection
   * that carries nothing. Destroyed first with an ordinary error, the socket's close fails the
   * request at the head of the queue instead (already aborted: undici reports nothing more), and
   * no connection is opened. Only on the transport's own Agent (`connects`), which speaks
   * HTTP/1.1 with one request per connection: a caller's dispatcher may multiplex HTTP/2 streams
   * on one socket. Nothing when the response had ended (the socket may serve another request).
   */
  private closeSocket(): void {
    const socket = this.socket;
    if (socket === undefined || this.settled || this.target.connects === undefined) return;
    if (socket.destroyed === true || typeof socket.destroy !== 'function') return;
    socket.destroy(new Error('voxroute closed the connection'));
  }

  private readonly retry = (): void => {
    // Aborted in between: the exchange has settled already and wants nothing more.
    if (this.abortReason) return;
    const fresh = this.target.freshConnection;
    if (fresh === undefined) {
      this.dispatch(this.target.dispatcher);
      return;
    }
    let connection: ReturnType<FreshConnection>;
    try {
      connection = fresh(String(this.options.origin));
    } catch (error) {
      this.sink.onError(error);
      return;
    }
    // Only the retry goes out on it: once the retry ended (or failed), its connection closes.
    this.retries = MAX_REUSED_RETRIES;
    this.dispatch(connection);
    connection.close().catch(noop);
  };

  /**
   * True when `error` is a reset of a reused socket before any response byte came from it:
   * the socket served an earlier request, it read nothing since this request's headers were
   * written, and the exchange did not abort it.
   */
  private isReusedSocketReset(error: Error): boolean {
    const socket = this.socket;
    return (
      socket !== undefined &&
      this.reused &&
      this.abortReason === undefined &&
      socket.bytesRead === this.bytesReadAtSend &&
      isConnectionReset(error)
    );
  }
}

/**
 * Most retries of one request after reused-socket resets. With a one-off connection the first
 * retry is the last (its socket is fresh); through a caller's dispatcher each retry may meet
 * another dead pooled socket, each then destroyed, so a few retries clear a pool dropped at once.
 */
const MAX_REUSED_RETRIES = 8;

function noop(): void {}

/** A body undici can send again: none, text or bytes (an AsyncIterable was consumed by the first send). */
function isReplayable(body: Dispatcher.DispatchOptions['body']): boolean {
  return body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array;
}

/** Most URLs kept in a wire's `parsedUrls`; past that it starts again (URLs with ids in them). */
const MAX_PARSED_URLS = 256;

/** The origin and path (with the query) of `url`; throws TypeError for an invalid URL, as `new URL` does. */
function originAndPath(parsedUrls: Map<string, ParsedUrl>, url: string): ParsedUrl {
  let parsed = parsedUrls.get(url);
  if (parsed === undefined) {
    const u = new URL(url);
    parsed = { origin: u.origin, path: u.pathname + u.search };
    if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
    parsedUrls.set(url, parsed);
  }
  return parsed;
}

/** The control of an exchange that failed before it was dispatched. */
const NO_CONTROL: WireControl = { pause() {}, resume() {}, abort() {} };

/**
 * undici's parsed headers (lower-case names) with repeated headers joined by `, `: the same
 * object when no header is repeated (undici builds a new one per response), else a copy.
 */
function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  let flat = true;
  for (const name in headers) {
    if (typeof headers[name] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}
