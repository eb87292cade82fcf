import type { HttpHandler, WebSocketHandler } from 'msw';
import { mockOf, type ProviderOrOptions, postRoutes, trimBase, wsRoutes } from '../msw-routes.js';
import type { CartesiaMock, CartesiaMockOptions } from './mock.js';
import { createCartesiaMock } from './mock.js';

/**
 * Options of {@link cartesiaHandlers}: the base URL (default `https://api.cartesia.ai`) and
 * either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: CartesiaHandlersOptions = { baseUrl: 'https://api.cartesia.ai', apiKey: 'test-key' };
 * ```
 */
export type CartesiaHandlersOptions = {
  /** Base URL the client calls; a trailing slash is ignored. Default: `'https://api.cartesia.ai'`. */
  baseUrl?: string | undefined;
} & ProviderOrOptions<CartesiaMock, CartesiaMockOptions>;

/**
 * msw handlers serving the Cartesia mock at `baseUrl`: `POST {baseUrl}/tts/bytes`,
 * `/tts/sse` and `/stt` (HTTP), and the WebSockets `{ws base}/tts/websocket` and `/stt/websocket` (base
 * URL with `https:` -> `wss:`) through msw's `ws` API, which intercepts only the runtime's
 * global WebSocket (Node >= 22): there, the client must use a standard WebSocket (voxroute:
 * `createWebSocketTransport({ useGlobalWebSocket: true })`), which sends no headers, so the
 * key must travel in the query (`api_key`). See `mockWebSocketHandler` for how a refused
 * upgrade looks through msw (a close code). Pass `provider` to share a mock (and read its
 * records), or mock options to make a new one.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const mock = createCartesiaMock();
 * const server = setupServer(...cartesiaHandlers({ provider: mock }));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `options` is not an object, `baseUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function cartesiaHandlers(
  options: CartesiaHandlersOptions = {},
): Array<HttpHandler | WebSocketHandler> {
  const mock = mockOf(options, createCartesiaMock, 'cartesiaHandlers');
  const base = trimBase(options.baseUrl ?? 'https://api.cartesia.ai', 'cartesiaHandlers: options.baseUrl');
  return [
    ...postRoutes(mock, base, ['/tts/bytes', '/tts/sse', '/stt']),
    ...wsRoutes(mock, base, ['/tts/websocket', '/stt/websocket']),
  ];
}
