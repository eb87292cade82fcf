import type { HttpHandler, WebSocketHandler } from 'msw';
import { argTypeError } from '../../internal/arg-checks.js';
import { mockOf, type ProviderOrOptions, postRoutes, trimBase, wsRoutes } from '../msw-routes.js';
import type { ElevenLabsMock, ElevenLabsMockOptions } from './mock.js';
import { createElevenLabsMock } from './mock.js';

/**
 * Options of {@link elevenLabsHandlers}: the API origin (default `https://api.elevenlabs.io`)
 * and either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: ElevenLabsHandlersOptions = { baseUrl: 'https://api.elevenlabs.io', apiKey: 'xi-test' };
 * ```
 */
export type ElevenLabsHandlersOptions = {
  /** Base URL the client calls; a trailing slash is ignored. Default: `'https://api.elevenlabs.io'`. */
  baseUrl?: string | undefined;
} & ProviderOrOptions<ElevenLabsMock, ElevenLabsMockOptions>;

/**
 * msw request handlers serving the ElevenLabs mock's HTTP endpoints at `baseUrl`:
 * `POST {baseUrl}/v1/text-to-speech/:voiceId` (convert), `.../with-timestamps`, `.../stream` and
 * `.../stream/with-timestamps`. Pass `provider` to share a mock (and read
 * its `requests`), or mock options to make a new one. The differences from the loopback server
 * are those of the OpenAI-compatible handlers (a reset is `Response.error()` or an errored body
 * stream; msw intercepts the global fetch and node:http, not undici's own `request`).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const mock = createElevenLabsMock();
 * const server = setupServer(...elevenLabsHandlers({ provider: mock }));
 * server.listen();
 * ```
 * @throws TypeError naming the argument when `options` is not an object, `baseUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function elevenLabsHandlers(options: ElevenLabsHandlersOptions = {}): HttpHandler[] {
  const mock = mockOf(options, createElevenLabsMock, 'elevenLabsHandlers');
  const base = trimBase(
    options.baseUrl ?? 'https://api.elevenlabs.io',
    'elevenLabsHandlers: options.baseUrl',
  );
  return postRoutes(mock, base, [
    '/v1/text-to-speech/:voiceId',
    '/v1/text-to-speech/:voiceId/with-timestamps',
    '/v1/text-to-speech/:voiceId/stream',
    '/v1/text-to-speech/:voiceId/stream/with-timestamps',
  ]);
}

/**
 * The msw WebSocket handler serving the mock's stream-input sessions at
 * `wss://{host}/v1/text-to-speech/*\/stream-input` for the https `baseUrl` (ws for http). Only
 * where msw can intercept WebSockets: the runtime's global `WebSocket` (Node >= 22); the client
 * then sends no handshake headers, so the key must travel in the `authorization` query
 * parameter or the first message (voxroute's adapter uses the first message when its
 * transport `canSendHeaders` is false). See `mockWebSocketHandler`.
 *
 * @example
 * ```ts
 * const server = setupServer(...elevenLabsHandlers({ provider: mock }), elevenLabsWebSocketHandler(mock));
 * ```
 * @throws TypeError naming the argument when `provider` is not an ElevenLabs mock or `baseUrl`
 *   is not a string.
 */
export function elevenLabsWebSocketHandler(
  provider: ElevenLabsMock,
  baseUrl = 'https://api.elevenlabs.io',
): WebSocketHandler {
  if (typeof provider !== 'object' || provider === null || typeof provider.upgrade !== 'function')
    throw argTypeError(
      'elevenLabsWebSocketHandler(provider, baseUrl?): provider',
      'an ElevenLabs mock (createElevenLabsMock())',
      provider,
    );
  const base = trimBase(baseUrl, 'elevenLabsWebSocketHandler(provider, baseUrl?): baseUrl');
  return wsRoutes(provider, base, ['/v1/text-to-speech/*/stream-input'])[0]!;
}
