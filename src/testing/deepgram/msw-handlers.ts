import type { HttpHandler, WebSocketHandler } from 'msw';
import { mockOf, type ProviderOrOptions, postRoutes, trimBase, wsRoutes } from '../msw-routes.js';
import { createDeepgramMock, type DeepgramMock, type DeepgramMockOptions } from './mock.js';

/**
 * Options of {@link deepgramHandlers}: the base URL (default `https://api.deepgram.com`) and
 * either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: DeepgramHandlersOptions = { baseUrl: 'https://api.deepgram.com', apiKey: 'dg-test' };
 * ```
 */
export type DeepgramHandlersOptions = {
  /** Base URL the client calls; a trailing slash is ignored. Default: `'https://api.deepgram.com'`. */
  baseUrl?: string | undefined;
} & ProviderOrOptions<DeepgramMock, DeepgramMockOptions>;

/**
 * msw handlers serving the Deepgram mock at `baseUrl`: `POST {baseUrl}/v1/speak` (HTTP, any
 * runtime) and the `/v1/listen` WebSocket at the same host with `ws:` / `wss:` (through msw's
 * `ws` API, see `mockWebSocketHandler`: only where the runtime has a global `WebSocket`, i.e.
 * Node >= 22; such a client sends no handshake headers, so it must authenticate with the
 * `token, <key>` subprotocols, and a refused upgrade arrives as a close code: 401 -> 1008).
 * Pass `provider` to share a mock (and read its `requests` and `sessions`).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const mock = createDeepgramMock({ apiKey: 'dg-test' });
 * const server = setupServer(...deepgramHandlers({ provider: mock }));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `options` is not an object, `baseUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function deepgramHandlers(
  options: DeepgramHandlersOptions = {},
): Array<HttpHandler | WebSocketHandler> {
  const mock = mockOf(options, createDeepgramMock, 'deepgramHandlers');
  const base = trimBase(options.baseUrl ?? 'https://api.deepgram.com', 'deepgramHandlers: options.baseUrl');
  return [...postRoutes(mock, base, ['/v1/speak']), ...wsRoutes(mock, base, ['/v1/listen'])];
}
