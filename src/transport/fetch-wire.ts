import type { Wire, WireControl, WireRequest, WireSink } from './wire.js';

/**
 * The wire over a caller-supplied `fetch` (the global one, which msw intercepts, or any wrapper
 * with the same signature). The body is pulled from `response.body` one read at a time, and only
 * while the exchange wants more (backpressure). Cancelling aborts the fetch's own signal, which
 * closes the connection. Redirects are not followed (`redirect: 'manual'`), as on the undici
 * wire. A fetch cannot tell when a connection is ready, so `observesConnect` is false.
 *
 * @param fetchFn The fetch to use.
 */
export function fetchWire(fetchFn: typeof globalThis.fetch): Wire {
  return {
    observesConnect: false,
    isFetch: true,
    start: (request, sink) => new FetchExchange(fetchFn, request, sink),
  };
}

class FetchExchange implements WireControl {
  private readonly sink: WireSink;
  private readonly controller = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private paused = false;
  private reading = false;
  private finished = false;

  constructor(fetchFn: typeof globalThis.fetch, request: WireRequest, sink: WireSink) {
    this.sink = sink;
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      redirect: 'manual',
      signal: this.controller.signal,
    };
    // A copy: request headers may be shared between requests (and frozen), and a caller's fetch
    // may add to the object it is given.
    if (request.headers) init.headers = { ...request.headers };
    const body = request.body;
    if (body !== undefined) {
      if (typeof body === 'string') {
        init.body = body;
      } else if (body instanceof Uint8Array) {
        init.body = body as Uint8Array<ArrayBuffer>;
      } else {
        init.body = streamOf(body);
        init.duplex = 'half';
      }
    }
    let pending: Promise<Response>;
    try {
      pending = fetchFn(request.url, init);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(this.onResponse, this.onFailure);
  }

  private readonly onResponse = (response: Response): void => {
    if (this.finished) {
      void response.body?.cancel().catch(noop);
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    this.sink.onHeaders(response.status, headers);
    if (this.finished) {
      void response.body?.cancel().catch(noop);
      return;
    }
    if (!response.body) {
      this.finished = true;
      this.sink.onEnd();
      return;
    }
    this.reader = response.body.getReader();
    this.pump();
  };

  private pump(): void {
    if (this.reading || this.paused || this.finished || !this.reader) return;
    this.reading = true;
    this.reader.read().then(this.onRead, this.onFailure);
  }

  private readonly onRead = (result: ReadableStreamReadResult<Uint8Array>): void => {
    this.reading = false;
    if (this.finished) return;
    if (result.done) {
      this.finished = true;
      this.sink.onEnd();
      return;
    }
    this.sink.onData(result.value);
    this.pump();
  };

  private readonly onFailure = (error: unknown): void => {
    this.reading = false;
    if (this.finished) return;
    this.finished = true;
    this.sink.onError(error);
  };

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  abort(reason: Error): void {
    if (this.finished && this.controller.signal.aborted) return;
    this.finished = true;
    this.controller.abort(reason);
    if (this.reader) void this.reader.cancel(reason).catch(noop);
  }
}

function streamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function noop(): void {}
