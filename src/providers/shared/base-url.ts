import { ConfigError } from '../../errors/index.js';

/**
 * The configured `baseUrl` of provider `provider`, parsed and checked before any request:
 * http or https only, no user name or password in it (keys belong in `apiKey`), fragment
 * dropped. Throws ConfigError with path `providers.<provider>.baseUrl` and the message
 * `not a valid URL`, `must be an http or https URL` or `must not hold credentials; use apiKey`.
 */
export function parseBaseUrl(provider: string, baseUrl: string): URL {
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
  base.hash = '';
  return base;
}

/**
 * Checks that a required API key is set. Throws ConfigError (path
 * `providers.<provider>.apiKey`, message `must not be empty`) for an empty or missing key; the
 * key itself never appears in the error.
 */
export function requireApiKey(provider: string, apiKey: string | undefined): string {
  if (!apiKey)
    throw new ConfigError([{ path: ['providers', provider, 'apiKey'], message: 'must not be empty' }]);
  return apiKey;
}

/**
 * A copy of `base` whose path is the base path (trailing slashes dropped) followed by `path`:
 * `http://h:8000/v1` and `http://h:8000/v1/` with `'/chat/completions'` both give
 * `http://h:8000/v1/chat/completions`. Query string and origin are the base URL's.
 */
export function urlUnder(base: URL, path: `/${string}`): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}

/** Switches an http(s) URL to the WebSocket scheme of the same host, in place: `https:` -> `wss:`, `http:` -> `ws:`. */
export function useWebSocketScheme(url: URL): URL {
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  return url;
}

/**
 * Adds `params` (name, value; in order, a name may repeat) to the query of `url`, in place: the
 * query the URL already has (a `baseUrl`'s own, such as a gateway's `?subscription-key=`) is
 * kept as written, but for its parameters of a name that `params` sets, which the adapter's
 * value replaces; `params` follow, URL-encoded.
 */
export function appendQuery(url: URL, params: Iterable<readonly [string, string]>): void {
  const added = new URLSearchParams();
  for (const [name, value] of params) added.append(name, value);
  const own = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !added.has(decodedName(pair)));
  const extra = added.toString();
  url.search = [...own, ...(extra ? [extra] : [])].join('&');
}

/** The name of a `name=value` query pair, decoded as a form (`+` is a space); as written when it does not decode. */
function decodedName(pair: string): string {
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
