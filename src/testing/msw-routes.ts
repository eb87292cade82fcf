import { type HttpHandler, http, type WebSocketHandler } from 'msw';
import { argTypeError, checkObject } from '../internal/arg-checks.js';
import type { MockProvider } from './mock-provider.js';
import { mockWebSocketHandler } from './ws-msw.js';

/**
 * The mock part of a provider's msw handler options: `provider`, a mock to share (and read the
 * records of), or the options of a new one.
 */
export type ProviderOrOptions<M, O> =
  | {
      /** A mock to serve, made beforehand (so the test can script it and read its records). */
      provider: M;
    }
  | (O & {
      /** Leave out to have the handlers make a new mock from the other options. */
      provider?: undefined;
    });

/**
 * The mock of `options`: its `provider`, else a new one made by `create` from the options
 * without the handlers' own keys (`baseUrl`, `endpointUrl`), so the factory checks the rest.
 * @throws TypeError naming `name`'s argument when `options` is not an object, or `provider`
 *   is given but is not a mock (an object with `handle()`).
 */
export function mockOf<M, O>(
  options: ProviderOrOptions<NoInfer<M>, NoInfer<O>>,
  create: (options: O) => M,
  name: string,
  urlKey: 'baseUrl' | 'endpointUrl' = 'baseUrl',
): M {
  checkObject(`${name}(options): options`, `an object ({ provider } or mock options, ${urlKey})`, options);
  const provider: unknown = options.provider;
  if (provider !== undefined && provider !== null) {
    if (typeof (provider as { handle?: unknown }).handle !== 'function')
      throw argTypeError(
        `${name}: options.provider`,
        'a mock (e.g. from a create...Mock() factory)',
        provider,
      );
    return options.provider as M;
  }
  const {
    baseUrl: _base,
    endpointUrl: _endpoint,
    provider: _provider,
    ...mockOptions
  } = options as Record<string, unknown>;
  return create(mockOptions as O);
}

/**
 * `url` without trailing slashes.
 * @throws TypeError `<where> must be a URL string, got <its type>` when `url` is not a string.
 */
export function trimBase(url: string, where: string): string {
  if (typeof url !== 'string')
    throw argTypeError(where, "a URL string (e.g. 'https://api.openai.com/v1')", url);
  return url.replace(/\/+$/, '');
}

/** msw handlers that hand `POST {base}{path}` to `mock.handle`, for each path (msw patterns allowed). */
export function postRoutes(mock: MockProvider, base: string, paths: readonly string[]): HttpHandler[] {
  return paths.map((path) => http.post(`${base}${path}`, ({ request }) => mock.handle(request)));
}

/** msw handlers that hand `GET {base}{path}` to `mock.handle`, for each path (msw patterns allowed). */
export function getRoutes(mock: MockProvider, base: string, paths: readonly string[]): HttpHandler[] {
  return paths.map((path) => http.get(`${base}${path}`, ({ request }) => mock.handle(request)));
}

/**
 * msw handlers that hand the WebSocket `{ws base}{path}` to `mock.upgrade`, for each path
 * (`base` with `http(s):` turned into `ws(s):`; msw patterns allowed).
 */
export function wsRoutes(mock: MockProvider, base: string, paths: readonly string[]): WebSocketHandler[] {
  const wsBase = base.replace(/^http(s?):/, 'ws$1:');
  return paths.map((path) => mockWebSocketHandler(`${wsBase}${path}`, mock));
}
