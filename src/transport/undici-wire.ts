import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Wire, WireControl, WireRequest, WireSink } from './wire.js';

/**
 * The default wire: undici's `Dispatcher.dispatch` with a handler of undici's v7 handler API,
 * the layer that undici's `request()` itself is built on. Body chunks go straight from the
 * socket parser to the exchange (no Readable stream in between), backpressure is undici's own
 * `pause()`/`resume()`, and `onRequestStart` tells when a connection was ready, which gives the
 * connect deadline its meaning. Each request sets `headersTimeout: 0` and `bodyTimeout: 0`, so
 * no dispatcher default (undici's is 300 s) can cut a call before the SDK's deadlines (case C25).
 *
 * @param dispatcher An undici v7 Dispatcher (Agent, Pool, Client).
 */
export function undiciWire(dispatcher: Dispatcher): Wire {
  return {
    observesConnect: true,
    isFetch: false,
    start: (request, sink) => start(dispatcher, request, sink),
  };
}

function start(dispatcher: Dispatcher, request: WireRequest, sink: WireSink): WireControl {
  const handler = new UndiciHandler(sink);
  try {
    const url = new URL(request.url);
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method,
        headers: request.headers ?? null,
        // undici also takes an AsyncIterable<Uint8Array> body (sent chunked); its types omit it.
        body: (request.body ?? null) as string | Uint8Array | null,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      handler,
    );
  } catch (error) {
    sink.onError(error);
  }
  return handler;
}

class UndiciHandler implements Dispatcher.DispatchHandler, WireControl {
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private readonly sink: WireSink;

  constructor(sink: WireSink) {
    this.sink = sink;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) {
      controller.abort(this.abortReason);
      return;
    }
    this.sink.onConnected();
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
    this.sink.onEnd();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.sink.onError(error);
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
    this.controller?.abort(reason);
  }
}

/** undici's parsed headers (lower-case names) with repeated headers joined by `, `. */
function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}
