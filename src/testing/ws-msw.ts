import { type WebSocketHandler, type WebSocketHandlerConnection, ws } from 'msw';
import { argTypeError } from '../internal/arg-checks.js';
import type { MockProvider } from './mock-provider.js';
import type { MockSocket } from './mock-websocket.js';

/** A client frame as msw hands it over: text, bytes, or a Blob. */
type ClientData = string | ArrayBufferLike | ArrayBufferView | Blob;

/**
 * An msw WebSocket handler serving `provider.upgrade` for connections to `url` (e.g.
 * `'wss://api.deepgram.com/v1/listen'`; a connection's query string does not affect the match).
 * Works only where msw can intercept: the runtime's global `WebSocket` (Node >= 22, browsers),
 * so the client must be created from `globalThis.WebSocket` after `server.listen()` (with
 * voxroute's transport: `createWebSocketTransport({ useGlobalWebSocket: true })`).
 *
 * The upgrade `Request` given to the provider has the connection's URL with `ws:`/`wss:` turned
 * into `http:`/`https:` (as `startMockServer` gives it) and only a `sec-websocket-protocol` header
 * (a standard WebSocket sends no custom headers). Differences from the loopback server:
 * - msw cannot refuse the handshake with an HTTP status: a `reject` closes the connection at
 *   once (the client sees the close before `open`) with a close code standing for the status
 *   ({@link closeCodeOfStatus}: 429 -> 1013 try again later, 5xx -> 1011, other statuses ->
 *   1008 policy violation); the reason is `HTTP <status> <body>`, cut to 123 bytes. voxroute's
 *   transport then rejects `connect()` with ProviderError `status` = that close code;
 * - `terminate()` closes with 1006 (msw has no TCP connection to drop);
 * - `close()`/`terminate()` take effect after the frames already sent (msw would otherwise drop
 *   them), so the client sees every frame sent before the close, then the close;
 * - a client's binary frames reach `onMessage` as Uint8Array (Blobs are read first; frames keep
 *   their order).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const server = setupServer(mockWebSocketHandler('wss://api.deepgram.com/v1/listen', mock));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `url` is not a string or `provider` is not a mock
 *   (an object with `handle()`).
 */
export function mockWebSocketHandler(url: string, provider: MockProvider): WebSocketHandler {
  if (typeof url !== 'string')
    throw argTypeError(
      'mockWebSocketHandler(url, provider): url',
      "a WebSocket URL string (e.g. 'wss://api.deepgram.com/v1/listen')",
      url,
    );
  if (typeof provider !== 'object' || provider === null || typeof provider.handle !== 'function')
    throw argTypeError(
      'mockWebSocketHandler(url, provider): provider',
      'a mock (e.g. createDeepgramMock())',
      provider,
    );
  return ws.link(url).addEventListener('connection', (connection) => serveConnection(connection, provider));
}

function serveConnection({ client, info }: WebSocketHandlerConnection, provider: MockProvider): void {
  const headers = new Headers();
  const protocols = info.protocols === undefined ? [] : ([] as string[]).concat(info.protocols);
  if (protocols.length) headers.set('sec-websocket-protocol', protocols.join(', '));
  const httpUrl = client.url.href.replace(/^ws(s?):/, 'http$1:');
  const gone = new AbortController();
  client.addEventListener('close', () => gone.abort());
  if (!provider.upgrade) {
    client.close(1008, 'HTTP 404');
    return;
  }
  const decision = provider.upgrade(new Request(httpUrl, { headers, signal: gone.signal }));
  if ('reject' in decision) {
    const { status, body } = decision.reject;
    client.close(closeCodeOfStatus(status), cutReason(`HTTP ${status}${body ? ` ${body}` : ''}`));
    return;
  }
  decision.accept(mockSocketOfMswClient(client));
}

/**
 * The close code that stands for a refused upgrade's HTTP status under msw (which cannot answer
 * a handshake with a status): 429 -> 1013 (try again later), >= 500 -> 1011 (internal error),
 * any other status -> 1008 (policy violation). RFC 6455 §7.4.1 / IANA close codes.
 */
export function closeCodeOfStatus(status: number): number {
  if (status === 429) return 1013;
  if (status >= 500) return 1011;
  return 1008;
}

function cutReason(reason: string): string {
  let bytes = Buffer.from(reason, 'utf8');
  if (bytes.length <= 123) return reason;
  bytes = bytes.subarray(0, 123);
  // Drop a cut multi-byte character at the end.
  return Buffer.from(bytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

function mockSocketOfMswClient(client: WebSocketHandlerConnection['client']): MockSocket {
  let open = true;
  let closedWith: [number, string] | undefined;
  const closeListeners: Array<(code: number, reason: string) => void> = [];
  let order: Promise<void> = Promise.resolve();
  const notifyClose = (code: number, reason: string) => {
    open = false;
    if (closedWith) return;
    closedWith = [code, reason];
    for (const listener of closeListeners.splice(0)) listener(code, reason);
  };
  client.addEventListener('close', (event) => notifyClose(event.code, event.reason));
  // msw delivers each `client.send` in a microtask that drops the frame once the socket is
  // closing, and `client.close` marks it closing at once: closing right after a send would lose
  // the frames sent just before (e.g. a final message). Queue the close behind them instead, as a
  // real server's close frame follows its data frames on the wire.
  const closeAfterSends = (code: number, reason: string) => {
    queueMicrotask(() => client.close(code, reason));
  };
  return {
    send(data) {
      if (open) client.send(data);
    },
    close(code = 1000, reason = '') {
      if (!open) return;
      closeAfterSends(code, reason);
      notifyClose(code, reason);
    },
    terminate() {
      if (!open) return;
      closeAfterSends(1006, '');
      notifyClose(1006, '');
    },
    onMessage(listener) {
      client.addEventListener('message', (event) => {
        const data = event.data as ClientData;
        order = order.then(async () => listener(await toFrame(data)));
      });
    },
    onClose(listener) {
      if (closedWith) listener(...closedWith);
      else closeListeners.push(listener);
    },
  };
}

async function toFrame(data: ClientData): Promise<string | Uint8Array> {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof Blob !== 'undefined' && data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  return new Uint8Array(data as ArrayBufferLike);
}
