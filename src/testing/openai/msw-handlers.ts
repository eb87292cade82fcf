import type { HttpHandler } from 'msw';
import { getRoutes, mockOf, type ProviderOrOptions, postRoutes, trimBase } from '../msw-routes.js';
import type { OpenAiCompatibleMock, OpenAiCompatibleMockOptions } from './mock.js';
import { createOpenAiCompatibleMock } from './mock.js';

/**
 * Options of {@link openAiCompatibleHandlers}: the base URL and either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: OpenAiCompatibleHandlersOptions = { baseUrl: 'https://api.openai.com/v1', chat: 'Hi.' };
 * ```
 */
export type OpenAiCompatibleHandlersOptions = {
  /**
   * Base URL the client calls, up to and including `/v1`, e.g. `'https://api.openai.com/v1'`; a trailing
   * slash is ignored.
   */
  baseUrl: string;
} & ProviderOrOptions<OpenAiCompatibleMock, OpenAiCompatibleMockOptions>;

/**
 * msw request handlers serving the OpenAI-compatible mock at `baseUrl` (e.g.
 * `'https://api.openai.com/v1'`): `POST {baseUrl}/chat/completions`, `/audio/speech` and
 * `/audio/transcriptions`, `GET {baseUrl}/models` and `/models/{id}`. Pass `provider` to share a mock (and read its `requests`), or mock
 * options to make a new one.
 *
 * Differences from the loopback server (`startMockServer`): a reset before the headers is
 * `Response.error()` (fetch rejects with TypeError 'Failed to fetch'); a reset after K chunks
 * errors the body stream (the read rejects with TypeError 'terminated', cause code
 * 'ECONNRESET'), with no real socket; a client abort reaches the mock through
 * `request.signal`. msw intercepts the global fetch and node:http, not undici's own `request`.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const mock = createOpenAiCompatibleMock({ chat: 'Hi there.' });
 * const server = setupServer(...openAiCompatibleHandlers({ baseUrl: 'https://llm.test/v1', provider: mock }));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `options` is not an object, `baseUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function openAiCompatibleHandlers(options: OpenAiCompatibleHandlersOptions): HttpHandler[] {
  const mock = mockOf(options, createOpenAiCompatibleMock, 'openAiCompatibleHandlers');
  const base = trimBase(options.baseUrl, 'openAiCompatibleHandlers: options.baseUrl');
  return [
    ...postRoutes(mock, base, ['/chat/completions', '/audio/speech', '/audio/transcriptions']),
    ...getRoutes(mock, base, ['/models', '/models/*']),
  ];
}
