import {
  appendQuery,
  parseBaseUrl,
  requireApiKey,
  urlUnder,
  useWebSocketScheme,
} from '../shared/base-url.js';

/**
 * Where the requests of one Deepgram provider go, and its key. Every URL is built from
 * `base`, so the key only ever reaches that host.
 */
export interface DeepgramEndpoint {
  /** Provider name (the key in the config's `providers`). */
  provider: string;
  /** The parsed base URL, e.g. `https://api.deepgram.com` (no `/v1`), with its query if it has one. */
  base: URL;
  apiKey: string;
}

/**
 * Checks `baseUrl` (http or https, no credentials in it) and keeps the key.
 * Throws ConfigError (path `providers.<name>.baseUrl`) otherwise, and (path `apiKey`) for an empty key.
 */
export function createDeepgramEndpoint(provider: string, baseUrl: string, apiKey: string): DeepgramEndpoint {
  const base = parseBaseUrl(provider, baseUrl);
  requireApiKey(provider, apiKey);
  return { provider, base, apiKey };
}

/**
 * The URL of `path` (e.g. `'/v1/speak'`) under the base URL with `query` appended in order
 * (values URL-encoded) to the base URL's own query, if any (kept as written, but for a parameter
 * that `query` sets: see appendQuery). `scheme` `'ws'` gives the WebSocket form of the same host: `https:`
 * becomes `wss:` and `http:` becomes `ws:` (PROTOCOLS.md 3.1: REST on https://api.deepgram.com,
 * WebSocket on wss://api.deepgram.com).
 */
export function deepgramUrl(
  endpoint: DeepgramEndpoint,
  path: `/${string}`,
  query: ReadonlyArray<readonly [string, string]>,
  scheme: 'http' | 'ws' = 'http',
): string {
  const url = urlUnder(endpoint.base, path);
  appendQuery(url, query);
  if (scheme === 'ws') useWebSocketScheme(url);
  return url.href;
}

/** The `Authorization` value of an API key: `Token <key>` (PROTOCOLS.md 3.1, DGJS `CustomClient.ts`). */
export function authorizationOf(endpoint: DeepgramEndpoint): string {
  return `Token ${endpoint.apiKey}`;
}
