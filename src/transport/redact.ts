import { redactText, SECRET_NAME } from '../errors/redact.js';

const MIN_SECRET_LENGTH = 6;

/**
 * Removes from `text` every value of a secret-bearing request header (names containing auth,
 * key, token, secret, cookie, signature, password or credential, e.g. `Authorization`, `x-api-key`,
 * `xi-api-key`), and the credential part of `Bearer <token>` / `Basic <token>` values, replacing
 * each with `[redacted]`; also a start of one of them that a server echoed cut or masked (see `redactText`). Used on every error message the transport builds, as a last guard in
 * case a provider echoes a request header back in its error body.
 *
 * @param text Message to clean.
 * @param headers The request's headers; values shorter than 6 characters are left alone.
 * @param provider The provider's name, shown in the message: kept even when it is the start of a secret.
 */
export function redactSecrets(
  text: string,
  headers: Record<string, string> | undefined,
  provider?: string,
): string {
  if (!headers) return text;
  const secrets: string[] = [];
  for (const name in headers) {
    if (!SECRET_NAME.test(name)) continue;
    const value = headers[name];
    if (!value) continue;
    if (value.length >= MIN_SECRET_LENGTH) secrets.push(value);
    const space = value.indexOf(' ');
    const token = space > 0 ? value.slice(space + 1).trim() : '';
    if (token.length >= MIN_SECRET_LENGTH) secrets.push(token);
  }
  return secrets.length === 0
    ? text
    : redactText(
        text,
        secrets.sort((a, b) => b.length - a.length),
        provider === undefined ? undefined : new Set([provider]),
      );
}
