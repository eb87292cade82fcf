import { ConfigError } from '../../errors/index.js';

/**
 * Where the requests of one Deepgram provider go, and its key. Every URL is built from
 * `base`, so the key only ever reaches that host.
 */
export interface DeepgramEndpoint {
  /** Provider name (the key in the config's `providers`). */
  provider: string;
  /** The parsed base URL, e.g. `https://api.deepgram.com` (no `/v1`). */
  base: URL;
  apiKey: string;
}

/**
 * Checks `baseUrl` (http or https, no credentials in it) and keeps the key.
 * Throws ConfigError (path `providers.<name>.baseUrl`) otherwise, and (path `apiKey`) for an empty key.
 */
export function createDeepgramEndpoint(provider: string, baseUrl: string, apiKey: string): DeepgramEndpoint {
  const path = ['providers', provider, 'baseUrl'];
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch (cause) {
    throw new ConfigError([{ path, message: 'not a valid URL' }], { cause });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ConfigError([{ path, message: 'must be an http or https URL' }]);
  }
  if (base.username || base.password) {
    throw new ConfigError([{ path, message: 'must not hold credentials; use apiKey' }]);
  }
  if (apiKey === '') {
    throw new ConfigError([{ path: ['providers', provider, 'apiKey'], message: 'must not be empty' }]);
  }
  base.hash = '';
  base.search = '';
  return { provider, base, apiKey };
}

/**
 * The URL of `path` (e.g. `'/v1/speak'`) under the base URL with `query` appended in order
 * (values URL-encoded). `scheme` `'ws'` gives the WebSocket form of the same host: `https:`
 * becomes `wss:` and `http:` becomes `ws:` (PROTOCOLS.md 3.1: REST on https://api.deepgram.com,
 * WebSocket on wss://api.deepgram.com).
 */
export function deepgramUrl(
  endpoint: DeepgramEndpoint,
  path: `/${string}`,
  query: ReadonlyArray<readonly [string, string]>,
  scheme: 'http' | 'ws' = 'http',
): string {
  const url = new URL(endpoint.base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  for (const [name, value] of query) url.searchParams.append(name, value);
  if (scheme === 'ws') url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** The `Authorization` value of an API key: `Token <key>` (PROTOCOLS.md 3.1, DGJS `CustomClient.ts`). */
export function authorizationOf(endpoint: DeepgramEndpoint): string {
  return `Token ${endpoint.apiKey}`;
}
