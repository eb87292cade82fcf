import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { MockProvider } from './mock-provider.js';
import { closeServer, listenOn, webRequestListener } from './node-adapter.js';
import type { RecordedRequest } from './recorded-request.js';
import { checkServerOptions } from './server-options.js';
import { type LoopbackCertificate, makeLoopbackCertificate } from './tls-certificate.js';
import { createUpgradeHandler, loadWs } from './ws-upgrade.js';

/**
 * Options of {@link startMockServer}.
 *
 * @example
 * ```ts
 * const options: MockServerOptions = { provider: createOpenAiCompatibleMock(), port: 0 };
 * ```
 */
export interface MockServerOptions {
  /** The mock to serve, e.g. from `createOpenAiCompatibleMock()`. */
  provider: MockProvider;
  /** TCP port. Default: 0 (a free port chosen by the OS). */
  port?: number | undefined;
  /** Interface to listen on. Default: `'127.0.0.1'` (loopback only). */
  host?: string | undefined;
  /**
   * Serve HTTPS and WSS instead of HTTP and WS. Default: false. A fresh self-signed
   * certificate (ECDSA P-256, valid for one day) is made at start for `localhost`,
   * `127.0.0.1`, `::1` and `host`; it is exposed as {@link MockServer.ca} for clients to
   * trust. Needs the `selfsigned` package (optional peer dependency, loaded only then);
   * without it `startMockServer` rejects with an Error saying so.
   */
  tls?: boolean | undefined;
}

/**
 * A running loopback mock server.
 *
 * @example
 * ```ts
 * const server: MockServer = await startMockServer({ provider: mock });
 * await fetch(`${server.url}/v1/chat/completions`, init);
 * expect(server.requests).toHaveLength(1);
 * await server.close();
 * ```
 */
export interface MockServer {
  /**
   * Origin of the server, e.g. `http://127.0.0.1:40123`, or `https://127.0.0.1:40123` with
   * `tls: true` (no trailing slash, no path).
   */
  url: string;
  /** The same origin for WebSocket clients: `ws://...`, or `wss://...` with `tls: true`. */
  wsUrl: string;
  /** The TCP port the server listens on: the `port` option, or the free port the OS chose for 0. */
  port: number;
  /**
   * With `tls: true`, the server's self-signed certificate (PEM), to give clients as their CA:
   * undici `new Agent({ connect: { ca } })`, ws `new WebSocket(url, { ca })`, node:https
   * `{ ca }`, or a file named by `NODE_EXTRA_CA_CERTS` in a child process. Undefined without TLS.
   */
  ca: string | undefined;
  /** The provider's record of requests (the same array). */
  requests: RecordedRequest[];
  /** Stops listening and drops every open connection (stalled streams end as aborted). */
  close(): Promise<void>;
}

/**
 * Serves `provider` on a real loopback port with node:http (or node:https with `tls: true`), so
 * production transports (undici, official SDKs) talk to it over TCP. The provider's web `Response` is sent as it
 * comes: headers at once, each body chunk as its own write; `Response.error()` or a body
 * stream error resets the TCP connection (RST); a client that disconnects aborts the
 * provider's `request.signal` and cancels the body, so its record shows `aborted: true`.
 * Rejects if the port cannot be bound, or when `ws` is missing for a WebSocket mock (below);
 * rejects with a TypeError naming the option (`startMockServer: options.port: ...`) for an
 * unknown option, a `provider` that is not a mock (or the mock passed as the options
 * themselves: `startMockServer(mock)`), or a `port`, `host` or `tls` of the wrong type or range.
 *
 * TLS: with `tls: true` the same is served over HTTPS/WSS (node:https) with a self-signed
 * certificate made at start, exposed as `ca` for the client to trust; for SDKs that always
 * dial `wss://` or `https://`.
 *
 * WebSocket: an HTTP upgrade goes to `provider.upgrade` (absent: 404) with a web `Request`
 * (URL with query, handshake headers); a `reject` answers that HTTP status and closes, an
 * `accept` is served with the `ws` package (optional peer dependency) as a MockSocket.
 * `close()` also terminates open WebSocket sessions. A provider with `upgrade` (the Cartesia,
 * Deepgram and ElevenLabs mocks) needs `ws`: without it this rejects at start with an Error
 * naming the package (`npm i -D ws`), and no server is started.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ provider: createOpenAiCompatibleMock() });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key' });
 * // ...
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  checkServerOptions(options);
  const host = options.host ?? '127.0.0.1';
  const certificate = options.tls === true ? await makeLoopbackCertificate(host) : undefined;
  return serveMock(options, certificate);
}

/**
 * {@link startMockServer} with a given certificate (TLS) or none (plain): several servers can
 * then share one certificate, so that their clients trust a single CA.
 */
export async function serveMock(
  options: Omit<MockServerOptions, 'tls'>,
  certificate: LoopbackCertificate | undefined,
): Promise<MockServer> {
  const { provider } = options;
  const host = options.host ?? '127.0.0.1';
  if (provider.upgrade) await loadWs();
  let origin = '';
  const listener = webRequestListener(
    (request) => provider.handle(request),
    () => origin,
  );
  const server = certificate
    ? createTlsServer({ noDelay: true, key: certificate.key, cert: certificate.cert }, listener)
    : createServer({ noDelay: true }, listener);
  const upgrades = createUpgradeHandler(provider, () => origin);
  server.on('upgrade', upgrades.onUpgrade);
  const scheme = certificate ? 'https' : 'http';
  const { port, origin: bound } = await listenOn(server, options.port, host, scheme);
  origin = bound;
  const close = () =>
    closeServer(server, () => {
      upgrades.closeAll();
      server.closeAllConnections();
    });
  return {
    url: origin,
    wsUrl: origin.replace(/^http/, 'ws'),
    port,
    ca: certificate?.cert,
    requests: provider.requests,
    close,
  };
}
