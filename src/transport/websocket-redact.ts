import { SECRET_NAME } from '../errors/redact.js';
import { redactSecrets } from './redact.js';
import { urlSecretValues } from './url-secrets.js';

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
 * secret-bearing handshake headers, plus each secret query parameter's value and any userinfo
 * password of `url` (as written, normalised, decoded and re-encoded: see `urlSecretValues`),
 * under the names `query-key-0`, `query-key-1`, ...
 */
export function connectionSecrets(
  url: string,
  headers: Record<string, string> | undefined,
): Record<string, string> {
  const secrets: Record<string, string> = { ...headers };
  urlSecretValues(url).forEach((value, i) => {
    secrets[`query-key-${i}`] = value;
  });
  return secrets;
}

/** `text` without any secret of the connection (see {@link connectionSecrets}). */
export function redactConnectionText(text: string, secrets: Record<string, string>): string {
  return redactSecrets(text, secrets);
}
