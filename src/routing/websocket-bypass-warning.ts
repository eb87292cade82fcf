import type { WebSocketTransport } from '../transport/websocket-types.js';
import type { Logger } from './router-types.js';

const MESSAGE =
  "A WebSocket connection does not go through the router's `fetch` option: it opens with undici's own WebSocket (pass the `WebSocket` option too, e.g. globalThis.WebSocket, for an interceptor such as msw to see it)";

/**
 * `webSocket` with one warning, at its first connection, that it does not go through the
 * router's `fetch` option: a router given `fetch` (an HTTP interceptor such as msw's, a proxy)
 * but no `WebSocket` opens WebSocket providers' connections (Cartesia, Deepgram, ElevenLabs'
 * stream-input) with undici's own WebSocket, which that `fetch` never sees. On Node 20, which
 * has no global WebSocket for msw to intercept, a test could otherwise reach the real provider
 * without a word. The warning goes to the router's logger (attribute `provider`), else to
 * `process.emitWarning` (code `VOXROUTE_WEBSOCKET_BYPASSES_FETCH`, printed on stderr); it names
 * the provider, never the URL.
 */
export function warnOnFetchBypass(
  webSocket: WebSocketTransport,
  logger: Logger | undefined,
): WebSocketTransport {
  let warned = false;
  const connect = webSocket.connect.bind(webSocket);
  webSocket.connect = (request) => {
    if (!warned) {
      warned = true;
      if (logger) logger.warn(MESSAGE, { provider: request.provider });
      else
        process.emitWarning(`${MESSAGE}; provider '${request.provider}'`, {
          code: 'VOXROUTE_WEBSOCKET_BYPASSES_FETCH',
        });
    }
    return connect(request);
  };
  return webSocket;
}
