import { SECRET_NAME } from '../errors/redact.js';

/**
 * The secret values written in `url`: the value of each query parameter whose name is a
 * credential name (SECRET_NAME: `api_key`, `key`, `token`, `access_token`, `sig`, `code`...) or,
 * when `keyShaped` is given, whose value it says is shaped like a key, and the user info's
 * password. Each is given as written (in `url`, and as the URL parser normalises it, the form
 * sent on the wire), decoded (`+` as a space in a query) and re-encoded, without duplicates or
 * empty strings, in that order. A bad `%` escape is tolerated: the value as written stands. A
 * string that does not parse as a URL gives none. Callers drop values too short to be secrets.
 *
 * @example
 * urlSecretValues('wss://h.example/v1?token=a%2Bb&model=m'); // ['a%2Bb', 'a+b']
 */
export function urlSecretValues(url: string, keyShaped?: (value: string) => boolean): string[] {
  if (!URL.canParse(url)) return [];
  const parsed = new URL(url);
  const found = new Set<string>();
  const add = (value: string) => {
    if (value) found.add(value);
  };
  const start = url.indexOf('?');
  const hash = url.indexOf('#', start);
  const written = start < 0 ? '' : url.slice(start + 1, hash < 0 ? undefined : hash);
  for (const query of [parsed.search.slice(1), written]) {
    for (const pair of query.split('&')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const value = pair.slice(eq + 1);
      const decoded = decodeLenient(value, true);
      const named = SECRET_NAME.test(decodeLenient(pair.slice(0, eq), true));
      if (!named && !(keyShaped && (keyShaped(decoded) || keyShaped(value)))) continue;
      add(value);
      add(decoded);
      add(encodeURIComponent(decoded));
    }
  }
  if (parsed.password) {
    add(parsed.password);
    add(decodeLenient(parsed.password, false));
  }
  return [...found];
}

/** `text` with its `%` escapes (and `+` when `plus`) decoded; as it is when an escape is bad. */
function decodeLenient(text: string, plus: boolean): string {
  try {
    return decodeURIComponent(plus ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}
