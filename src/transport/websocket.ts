import type { Dispatcher } from 'undici';
import { AbortError, ProviderError } from '../errors/index.js';
import type { AbortSource } from '../internal/abort-link.js';
import { type Clock, systemClock } from '../internal/clock.js';
import { loadUndici, withBundledRoots } from './agent.js';
import { PendingConnects } from './pending-connects.js';
import { redactSecrets } from './redact.js';
import { badHeaderError } from './refused-request.js';
import { type HandshakeRecord, recordingDispatcher } from './websocket-handshake.js';
import { boundedDispatcher, MAX_MESSAGE_BYTES } from './websocket-message-size.js';
import { connectionSecrets, redactUrl } from './websocket-redact.js';
import { type SocketLike, WebSocketSession } from './websocket-session.js';
import type {
  WebSocketConnection,
  WebSocketConnectRequest,
  WebSocketTransport,
  WebSocketTransportOptions,
} from './websocket-types.js';

type StandardConstructor = new (url: string, protocols?: string | string[]) => SocketLike;
type UndiciConstructor = new (
  url: string,
  init: { protocols?: string[]; headers?: Record<string, string>; dispatcher?: Dispatcher },
) => SocketLike;

/**
 * Creates the WebSocket transport that adapters of WebSocket protocols use
 * (`AttemptContext.webSocket`).
 *
 * - Default: undici's `WebSocket` (loaded lazily, on creation of the transport, so that
 *   `import 'voxroute'` stays fast), with the handshake `headers` and `protocols` of each request
 *   and `options.dispatcher` (default: an undici Agent of each connection's own, trusting
 *   `options.ca` as well when given, destroyed once the handshake settles, so that an abort
 *   during the handshake, or its connect deadline, drops its TCP connection at once, also in the
 *   middle of a TLS handshake). A refused upgrade rejects
 *   `connect()` with a ProviderError whose `status` is the HTTP status (e.g. 401: not retryable;
 *   429 / 5xx: retryable, `retryAfterMs` from `Retry-After`), read from the handshake response
 *   through the dispatcher, since undici's WebSocket itself only reports close 1006.
 * - `options.WebSocket` (e.g. `globalThis.WebSocket`) or `options.useGlobalWebSocket` (resolves
 *   `globalThis.WebSocket` at each connect, so msw's `ws` interception installed later applies):
 *   a standard constructor, which CANNOT send handshake headers. `headers` of the request are
 *   then dropped and `canSendHeaders` is false, so adapters must put credentials in the query
 *   string (or a first message) where the provider allows it. A refused upgrade is then
 *   indistinguishable from a network failure: ProviderError without `status`, retryable.
 *
 * `close()` closes every connection still open (or connecting, or closing) and resolves once
 * each has closed, so that nothing of the transport stays open after it.
 *
 * A message from the server larger than `options.maxMessageBytes` (default 16 MiB) ends
 * `messages()` with a ProtocolError (retryable) and closes the connection: undici fails the
 * connection (close frame 1009) as soon as the frame header announces more, before reading it;
 * a standard constructor's message is refused once received. A frame undici refuses itself (a
 * malformed one, close frame 1002; a text frame that is not UTF-8, 1007) ends `messages()` with
 * a retryable ProtocolError naming that, too, not a lost connection (1006).
 *
 * Every message built here has secrets removed: secret handshake headers, subprotocols, and the values of
 * secret query parameters (`api_key`, `key`, `token`, `xi-api-key`, `authorization`, ...: any
 * name containing key, token, auth, secret, signature, password or credential); URLs in
 * messages are shown with those values as `[redacted]`.
 *
 * @example
 * ```ts
 * const transport = createWebSocketTransport();
 * const conn = await transport.connect({ provider: 'deepgram', url, headers: { Authorization: `Token ${key}` },
 *   deadlines: { connectMs: 3000, idleMs: 5000 }, signal });
 * conn.send(audio);
 * for await (const message of conn.messages()) if (message.type === 'text') handle(JSON.parse(message.data));
 * ```
 * @throws TypeError naming `ca` when `options.ca` is not PEM certificates (a string, bytes or an
 *   array of those) or holds no PEM
 *   certificate that parses.
 */
export function createWebSocketTransport(options: WebSocketTransportOptions = {}): WebSocketTransport {
  const clock: Clock = options.clock ?? systemClock;
  const maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const standard = options.WebSocket !== undefined || options.useGlobalWebSocket === true;
  if (!standard) loadUndici().catch(() => {});
  // Without a dispatcher of the caller's: one Agent per connection (trusting `ca` too when given),
  // destroyed as soon as the handshake has settled. A WebSocket never shares its TCP connection, so
  // a shared pool buys nothing, and an Agent of the connection's own is the handle that tears down
  // a handshake the server has not answered: undici's WebSocket.close() while CONNECTING aborts the
  // upgrade request, but its pool then dials the origin again (a connection that sends nothing and
  // stays open), and a refused upgrade's socket stays pooled on some Node versions. An upgraded
  // socket is detached from its Agent, so destroying the Agent after `open` leaves it alone. The
  // Agents share one connector, so TLS sessions are still resumed across connections.
  // `ca` is checked here (TypeError naming it), not at the first handshake charged to a provider.
  const connectOptions = {
    ...(options.ca === undefined ? {} : { ca: withBundledRoots(options.ca) }),
    ...(options.connectTimeoutMs === undefined ? {} : { timeout: options.connectTimeoutMs }),
  };
  let connector: ReturnType<typeof import('undici').buildConnector> | undefined;
  /**
   * Agents of connections whose handshake has not settled yet, each with the connects (TCP, TLS
   * handshakes) its connector has under way, and destroys under way.
   */
  const agents = new Map<Dispatcher, PendingConnects>();
  const releasing = new Set<Promise<void>>();
  const release = (agent: Dispatcher): void => {
    const connects = agents.get(agent);
    if (connects === undefined) return;
    agents.delete(agent);
    // Destroying an Agent does not stop a connect under way (undici's Client holds no socket
    // before the handshake finished): a TLS handshake the server never answers would stay open
    // until the connector's timeout. Cut it here.
    connects.destroyAll(new AbortError('The WebSocket handshake was given up'));
    // (Bun's built-in undici has Agents without destroy(): close() there.)
    const handle = agent as { destroy?: () => Promise<void>; close?: () => Promise<void> };
    const done = Promise.resolve(handle.destroy ? handle.destroy() : handle.close?.()).catch(() => {});
    releasing.add(done);
    void done.then(() => releasing.delete(done));
  };
  const dispatcherOf = (undici: typeof import('undici')): { dispatcher: Dispatcher; own?: Dispatcher } => {
    if (options.dispatcher) return { dispatcher: boundedDispatcher(options.dispatcher, maxMessageBytes) };
    connector ??= undici.buildConnector(connectOptions);
    const connects = new PendingConnects();
    const own = new undici.Agent({
      connect: connects.wrap(connector),
      webSocket: { maxPayloadSize: maxMessageBytes },
    });
    agents.set(own, connects);
    return { dispatcher: own, own };
  };
  /** Every session not closed yet (connecting, open or closing), for close(). */
  const sessions = new Set<WebSocketSession>();
  let closed = false;
  return {
    canSendHeaders: !standard,
    async close(): Promise<void> {
      closed = true;
      const open = [...sessions];
      for (const session of open) session.shutdown();
      await Promise.all(open.map((session) => session.closed));
      for (const agent of [...agents.keys()]) release(agent);
      await Promise.all([...releasing]);
    },
    async connect(request: WebSocketConnectRequest): Promise<WebSocketConnection> {
      const { provider, signal } = request;
      if (signal?.aborted) throw abortError(provider, signal);
      if (closed) throw new AbortError(`WebSocket to provider '${provider}': the transport is closed`);
      const refused = badHeaderError(provider, request.headers);
      if (refused) throw refused;
      const secrets = connectionSecrets(request.url, request.headers);
      // Subprotocols can carry a key (e.g. Deepgram's `['token', key]`).
      request.protocols?.forEach((protocol, i) => {
        secrets[`protocol-token-${i}`] = protocol;
      });
      const handshake: HandshakeRecord = {};
      let socket: SocketLike;
      let own: Dispatcher | undefined;
      try {
        if (standard) {
          const Standard = (options.WebSocket ?? globalThis.WebSocket) as unknown as
            | StandardConstructor
            | undefined;
          if (!Standard) throw new Error('globalThis.WebSocket is not available in this runtime');
          socket = new Standard(request.url, request.protocols);
        } else {
          const undici = await loadUndici();
          if (signal?.aborted) throw abortError(provider, signal);
          const chosen = dispatcherOf(undici);
          own = chosen.own;
          const dispatcher = recordingDispatcher(chosen.dispatcher, handshake);
          const Undici = undici.WebSocket as unknown as UndiciConstructor;
          socket = new Undici(request.url, {
            ...(request.protocols ? { protocols: request.protocols } : {}),
            ...(request.headers ? { headers: request.headers } : {}),
            dispatcher,
          });
        }
      } catch (error) {
        if (own) release(own);
        if (AbortError.isInstance(error)) throw error;
        const detail = error instanceof Error ? error.message : String(error);
        throw new ProviderError(
          redactSecrets(
            `Cannot open a WebSocket to provider '${provider}' at ${redactUrl(request.url)}: ${detail}`,
            secrets,
            provider,
          ),
          { provider, retryable: false },
        );
      }
      const session = new WebSocketSession({
        socket,
        provider,
        shownUrl: redactUrl(request.url),
        secrets,
        clock,
        ...(signal ? { signal } : {}),
        connectMs: request.deadlines?.connectMs ?? 0,
        idleMs: request.deadlines?.idleMs ?? 0,
        closeTimeoutMs: options.closeTimeoutMs ?? 5000,
        maxMessageBytes,
        handshake,
        ...(request.errorHeader ? { errorHeader: request.errorHeader } : {}),
      });
      sessions.add(session);
      // The handshake settled (open, refused, failed, timed out or aborted): the connection's own
      // Agent goes, and with it an upgrade request still pending and any socket it pooled.
      if (own) {
        const agent = own;
        session.opened.then(
          () => release(agent),
          () => release(agent),
        );
      }
      void session.closed.then(() => sessions.delete(session));
      await session.opened;
      return session;
    },
  };
}

function abortError(provider: string, signal: AbortSource): AbortError {
  return new AbortError(`WebSocket to provider '${provider}' aborted`, { cause: signal.reason });
}
