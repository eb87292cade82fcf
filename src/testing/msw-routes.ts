import { type HttpHandler, http, type WebSocketHandler } from 'msw';
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
 */
export function mockOf<M, O>(
  options: ProviderOrOptions<NoInfer<M>, NoInfer<O>>,
  create: (options: O) => M,
): M {
  if (options.provider) return options.provider;
  const {
    baseUrl: _base,
    endpointUrl: _endpoint,
    provider: _provider,
    ...mockOptions
  } = options as Record<string, unknown>;
  return create(mockOptions as O);
}

/** `url` without trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');

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
