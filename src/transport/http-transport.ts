import type { Dispatcher } from 'undici';
import { AbortError } from '../errors/index.js';
import { systemClock } from '../internal/clock.js';
import { loadUndici, tunedAgentOptions } from './agent.js';
import { ACCEPT_IDENTITY } from './content-coding.js';
import { Exchange, type ExchangeSettings } from './exchange.js';
import { fetchWire } from './fetch-wire.js';
import { PendingConnects } from './pending-connects.js';
import { badHeaderError } from './refused-request.js';
import { canDispatch, defaultHttpClient, detectRuntime } from './runtime.js';
import type {
  HttpRequest,
  HttpResponse,
  HttpTransport,
  HttpTransportOptions,
  PreconnectOptions,
} from './types.js';
import { undiciWire } from './undici-wire.js';
import type { Wire, WireRequest } from './wire.js';

/**
 * Creates the HTTP transport every provider adapter uses.
 *
 * Which client sends the requests:
 * - by default on Node and Deno, undici (v7) on an Agent of its own tuned for low latency
 *   ({@link tunedAgentOptions}), through `Dispatcher.dispatch`, the handler API under undici's
 *   `request()` (not fetch: on loopback fetch reaches the first body byte ~0.28 ms later);
 *   undici is imported lazily when the transport is created;
 * - by default on Bun and other runtimes with a global `fetch`: that fetch (Bun's built-in
 *   `undici` has no working dispatcher; see {@link defaultHttpClient}); also on Node and Deno
 *   when undici cannot be imported or its Agent has no `dispatch` method;
 * - `options.dispatcher`: the same, on the caller's undici dispatcher (never closed by us);
 * - `options.fetch`: that fetch instead (e.g. the global one, which msw intercepts). Deadlines,
 *   cancellation and error classes are the same; a connect deadline cannot be observed there and
 *   is not enforced (the headers deadline covers that time).
 *
 * `request(req)` resolves at the response headers of a 2xx status with an {@link HttpResponse}
 * whose body is read from the socket as it arrives. It rejects with:
 * - ProviderError for a non-2xx status (`status`, `retryable`, `retryAfterMs`, the provider's
 *   message/type/code from at most `maxErrorBodyBytes` of the body; the rest is discarded by
 *   closing the connection), or for a network failure (retryable, no `status`);
 * - TimeoutError (`connect`, `headers`, `first-chunk`, `total`) when a deadline passes;
 * - AbortError when `req.signal` aborts or the transport is closed.
 * On the undici path, a reset of a reused keep-alive socket before any response byte is retried,
 * transparently, when the body is absent, a string or a Uint8Array: on the transport's own Agent,
 * on a connection opened for the retry (never another pooled socket, which may be as dead); when
 * it cannot be retried, the ProviderError has `reusedSocketReset: true` (docs/transport.md).
 * The body iterator throws TimeoutError (`first-chunk`, `idle`, `total`), ProtocolError when the
 * body is cut (shorter than its `content-length`, or the connection closed mid-body: truncated,
 * retryable), and AbortError when the signal aborts or after `cancel()`. Every failure closes the
 * connection; `partialOutput` is true when body bytes had reached the consumer.
 *
 * `preconnect(origin)` sends `OPTIONS /` (with `accept-encoding: identity`) to the origin and reads the answer to its end, whatever
 * its status, leaving a warm keep-alive connection (TCP, TLS) in the pool. undici has no way to
 * open a pooled connection without a request (nodejs/undici#317); OPTIONS rather than HEAD,
 * because Node's http server closes the connection after a HEAD answer without a length. `close()` aborts every exchange in
 * flight (AbortError) and destroys the transport's own Agent, with any connection it is still
 * opening. On the transport's own Agent, an exchange aborted (signal, deadline, `close()`) while
 * its connection is being opened destroys that socket at once, in the middle of a TCP or TLS
 * handshake (undici alone would leave the handshake running until its connect timeout).
 *
 * @param options See {@link HttpTransportOptions}; every field is optional.
 * @throws TypeError naming `ca` when `options.ca` (used by the transport's own Agent) is not PEM
 *   certificates that parse.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  return new DefaultHttpTransport(options);
}

class DefaultHttpTransport implements HttpTransport {
  private wire: Wire | undefined;
  private readonly wireReady: Promise<Wire> | undefined;
  private agent: Dispatcher | undefined;
  /** The connects (TCP, TLS handshakes) under way on the transport's own Agent. */
  private readonly connects = new PendingConnects();
  private readonly inFlight = new Set<Exchange>();
  private readonly settings: ExchangeSettings;
  private readonly preconnectSettings: ExchangeSettings;
  private closed = false;

  constructor(options: HttpTransportOptions) {
    this.settings = {
      clock: options.clock ?? systemClock,
      maxBufferedBytes: options.maxBufferedBytes ?? 65_536,
      maxErrorBodyBytes: options.maxErrorBodyBytes ?? 65_536,
      onSettled: (exchange) => {
        this.inFlight.delete(exchange);
      },
    };
    this.preconnectSettings = { ...this.settings, acceptAnyStatus: true };
    if (options.fetch) {
      this.wire = fetchWire(options.fetch);
    } else if (options.dispatcher) {
      this.wire = undiciWire(options.dispatcher as Dispatcher);
    } else if (defaultHttpClient(detectRuntime()) === 'fetch') {
      this.wire = fetchWire(globalThis.fetch);
    } else {
      const agentOptions = tunedAgentOptions(options);
      const hasFetch = typeof globalThis.fetch === 'function';
      this.wireReady = loadUndici().then(
        (undici) => {
          // The Agent's connector, wrapped so that an aborted request or close() can cut a
          // handshake still pending (undici leaves it running until `connect.timeout`).
          // (An undici without buildConnector, e.g. Bun's, gets the options as they are.)
          const connect =
            typeof undici.buildConnector === 'function'
              ? this.connects.wrap(
                  undici.buildConnector(agentOptions.connect as Parameters<typeof undici.buildConnector>[0]),
                )
              : agentOptions.connect;
          const agent = new undici.Agent({ ...agentOptions, connect });
          if (!canDispatch(agent) && hasFetch) {
            this.wire = fetchWire(globalThis.fetch);
            return this.wire;
          }
          if (this.closed) void agent.destroy().catch(noop);
          this.agent = agent;
          // The retry of a reused-socket reset goes out on a connection of its own, on the
          // Agent's connector (same TLS settings, handshakes cut by close() too).
          const clientOptions = {
            connect,
            headersTimeout: 0,
            bodyTimeout: 0,
            pipelining: 1,
          } as ConstructorParameters<typeof undici.Client>[1];
          this.wire = undiciWire(agent, this.connects, (origin) => new undici.Client(origin, clientOptions));
          return this.wire;
        },
        (error: unknown) => {
          // undici did not resolve (e.g. a Deno setup without node_modules): use the runtime's fetch.
          if (!hasFetch) throw error;
          this.wire = fetchWire(globalThis.fetch);
          return this.wire;
        },
      );
      this.wireReady.catch(noop);
    }
  }

  request(req: HttpRequest): Promise<HttpResponse> {
    const refused = badHeaderError(req.provider, req.headers);
    if (refused) return Promise.reject(refused);
    return this.send(req, this.settings);
  }

  async preconnect(origin: string, options: PreconnectOptions = {}): Promise<void> {
    const url = new URL(origin);
    const response = await this.send(
      {
        provider: options.provider ?? url.host,
        method: 'OPTIONS',
        url: `${url.origin}/`,
        headers: ACCEPT_IDENTITY,
        signal: options.signal,
        deadlines: { totalMs: options.timeoutMs ?? 10_000, connectMs: options.connectMs },
      },
      this.preconnectSettings,
    );
    // Read the (small) answer to its end so that the connection returns to the pool.
    let bytes = 0;
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      if (bytes > MAX_PRECONNECT_BODY) {
        await response.cancel();
        return;
      }
    }
    // undici marks the socket free for the pool a turn of the event loop after the response
    // ends; a request sent before that would open a second connection.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const exchange of [...this.inFlight]) exchange.abort('The HTTP transport was closed');
    if (this.wireReady) await this.wireReady.catch(noop);
    this.wire?.close?.();
    const agent = this.agent;
    this.agent = undefined;
    this.connects.destroyAll(new AbortError('The HTTP transport was closed'));
    if (agent) await agent.destroy();
  }

  private send(req: WireRequest, settings: ExchangeSettings): Promise<HttpResponse> {
    if (this.closed) return Promise.reject(new AbortError('The HTTP transport is closed'));
    const wire = this.wire;
    if (wire === undefined) {
      return (this.wireReady as Promise<Wire>).then(() => this.send(req, settings));
    }
    const exchange = new Exchange(wire, req, settings);
    if (!exchange.settled) this.inFlight.add(exchange);
    return exchange.response;
  }
}

/** Bytes of a preconnect answer read before giving up on reusing its connection. */
const MAX_PRECONNECT_BODY = 65_536;

function noop(): void {}
