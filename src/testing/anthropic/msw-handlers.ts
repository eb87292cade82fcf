import type { HttpHandler } from 'msw';
import { mockOf, type ProviderOrOptions, postRoutes, trimBase } from '../msw-routes.js';
import type { AnthropicMock, AnthropicMockOptions } from './mock.js';
import { createAnthropicMock } from './mock.js';

/**
 * Options of {@link anthropicHandlers}: the base URL (without `/v1`, as the official client's
 * `baseURL`) and either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: AnthropicHandlersOptions = { baseUrl: 'https://api.anthropic.com', reply: 'Hi.' };
 * ```
 */
export type AnthropicHandlersOptions = {
  /**
   * Base URL the client calls, without `/v1` (as the SDK's `baseURL`), e.g. `'https://api.anthropic.com'`; a
   * trailing slash is ignored.
   */
  baseUrl: string;
} & ProviderOrOptions<AnthropicMock, AnthropicMockOptions>;

/**
 * msw request handlers serving the Anthropic mock at `POST {baseUrl}/v1/messages` (e.g.
 * `baseUrl: 'https://api.anthropic.com'`). Pass `provider` to share a mock (and read its
 * `requests`), or mock options to make a new one. Faults behave as with the OpenAI-compatible
 * handlers (docs/testing.md): a reset before the headers is `Response.error()`, a reset after K
 * chunks errors the body stream, a client abort reaches the mock through `request.signal`.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const mock = createAnthropicMock({ apiKey: 'test-key' });
 * const server = setupServer(...anthropicHandlers({ baseUrl: 'https://api.anthropic.com', provider: mock }));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `options` is not an object, `baseUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function anthropicHandlers(options: AnthropicHandlersOptions): HttpHandler[] {
  const mock = mockOf(options, createAnthropicMock, 'anthropicHandlers');
  return postRoutes(mock, trimBase(options.baseUrl, 'anthropicHandlers: options.baseUrl'), ['/v1/messages']);
}
