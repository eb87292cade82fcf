import { useWebSocketScheme } from '../shared/base-url.js';
import { createHttpEndpoint, endpointUrl, type HttpEndpoint } from '../shared/http-endpoint.js';
import { CARTESIA_BASE_URL, CARTESIA_DEFAULT_VERSION } from './config.js';
import type { CartesiaAdapterOptions } from './options.js';

/**
 * Where and how requests of one Cartesia provider go. `http` is the shared HTTP endpoint
 * (providers/shared: URL checks, `endpointUrl`, `postToEndpoint`), whose headers are
 * `Authorization: Bearer <key>`, `X-API-Key: <key>` and `Cartesia-Version` (PROTOCOLS.md 1.1:
 * the current SDK sends Bearer, the older SDK and some docs X-API-Key; the spec requires the
 * version header).
 */
export interface CartesiaEndpoint {
  http: HttpEndpoint;
  provider: string;
  version: string;
  apiKey: string | undefined;
  /** Put `api_key` and `cartesia_version` in WebSocket URLs instead of handshake headers. */
  authInQuery: boolean;
}

/** What a WebSocket connect needs: the URL (query included) and the handshake headers. */
export interface CartesiaSocketTarget {
  url: string;
  headers: Record<string, string>;
}

/** Headers the adapter sets itself: extra headers of the same names are dropped. */
const OWN_HEADERS = new Set(['authorization', 'x-api-key', 'cartesia-version']);

/**
 * Checks `baseUrl` (default `https://api.cartesia.ai`) and builds the endpoint: `headers`
 * (minus any named Authorization, X-API-Key or Cartesia-Version, case-insensitively), then
 * `cartesia-version`, `x-api-key` and `authorization: Bearer` when a key is set. Throws
 * ConfigError (path `providers.<name>.baseUrl`) when it is not an http(s) URL or holds
 * credentials.
 */
export function createCartesiaEndpoint(
  options: Pick<
    CartesiaAdapterOptions,
    'name' | 'baseUrl' | 'apiKey' | 'version' | 'headers' | 'authInQuery'
  >,
): CartesiaEndpoint {
  const version = options.version ?? CARTESIA_DEFAULT_VERSION;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['cartesia-version'] = version;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  return {
    http: createHttpEndpoint(options.name, options.baseUrl ?? CARTESIA_BASE_URL, options.apiKey, headers),
    provider: options.name,
    version,
    apiKey: options.apiKey || undefined,
    authInQuery: options.authInQuery ?? false,
  };
}

/** The HTTP URL of `path` under the base URL, e.g. `https://api.cartesia.ai/tts/bytes`. */
export function cartesiaUrl(endpoint: CartesiaEndpoint, path: `/${string}`): string {
  return endpointUrl(endpoint.http, path);
}

/**
 * The WebSocket URL and handshake headers of `path` (PROTOCOLS.md 1.1, 1.5, 1.6): the base URL
 * with `https:` -> `wss:` and `http:` -> `ws:`, then `query` (undefined values left out). With
 * `authInQuery` the key and version go in the query as `api_key` and `cartesia_version` (what
 * the SDK does in browsers) and no header is sent; otherwise in the headers.
 */
export function cartesiaSocketTarget(
  endpoint: CartesiaEndpoint,
  path: `/${string}`,
  query: Record<string, string | number | undefined> = {},
): CartesiaSocketTarget {
  const url = useWebSocketScheme(new URL(cartesiaUrl(endpoint, path)));
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  if (!endpoint.authInQuery) return { url: url.href, headers: { ...endpoint.http.headers } };
  url.searchParams.set('cartesia_version', endpoint.version);
  if (endpoint.apiKey) url.searchParams.set('api_key', endpoint.apiKey);
  return { url: url.href, headers: {} };
}
