import { SECRET_NAME } from '../errors/redact.js';
import { redactSecrets } from './redact.js';

/** Query parameter names whose values are credentials: the one rule for headers and queries. */
const SECRET_PARAM = SECRET_NAME;

/**
 * The URL with the value of every secret-bearing query parameter (see SECRET_NAME: e.g.
 * `api_key`, `key`, `token`, `xi-api-key`, `authorization`, `sig`) replaced by `[redacted]`. A string that does not parse as a
 * URL is returned with everything after `?` dropped.
 *
 * @example
 * ```ts
 * redactUrl('wss://api.example.com/v1/listen?token=abc&model=x');
 * // 'wss://api.example.com/v1/listen?token=[redacted]&model=x'
 * ```
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const query = url.indexOf('?');
    return query < 0 ? url : `${url.slice(0, query)}?[redacted]`;
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
  }
  const parts: string[] = [];
  for (const [name, value] of parsed.searchParams) {
    const shown = SECRET_PARAM.test(name) ? '[redacted]' : encodeURIComponent(value);
    parts.push(`${encodeURIComponent(name)}=${shown}`);
  }
  parsed.search = '';
  parsed.hash = '';
  return parts.length ? `${parsed.href}?${parts.join('&')}` : parsed.href;
}

/**
 * The secret values of one connection, as a header-like record for `redactSecrets`: the
 * secret-bearing handshake headers, plus each secret query parameter's value (decoded,
 * re-encoded, and as written in `url`) and any userinfo password of the URL.
 */
export function connectionSecrets(
  url: string,
  headers: Record<string, string> | undefined,
): Record<string, string> {
  const secrets: Record<string, string> = { ...headers };
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed) return secrets;
  let i = 0;
  for (const [name, value] of parsed.searchParams) {
    if (!SECRET_PARAM.test(name) || !value) continue;
    secrets[`query-key-${i++}`] = value;
    secrets[`query-key-${i++}`] = encodeURIComponent(value);
  }
  const query = url.indexOf('?');
  if (query >= 0) {
    for (const pair of url
      .slice(query + 1)
      .split('#')[0]!
      .split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && SECRET_PARAM.test(pair.slice(0, eq))) secrets[`query-key-${i++}`] = pair.slice(eq + 1);
    }
  }
  if (parsed.password) secrets['url-password'] = decodeURIComponent(parsed.password);
  return secrets;
}

/** `text` without any secret of the connection (see {@link connectionSecrets}). */
export function redactConnectionText(text: string, secrets: Record<string, string>): string {
  return redactSecrets(text, secrets);
}
