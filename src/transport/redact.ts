const SECRET_HEADER = /auth|key|token|secret|cookie|signature|password/i;
const MIN_SECRET_LENGTH = 6;

/**
 * Removes from `text` every value of a secret-bearing request header (names containing auth,
 * key, token, secret, cookie, signature or password, e.g. `Authorization`, `x-api-key`,
 * `xi-api-key`), and the credential part of `Bearer <token>` / `Basic <token>` values, replacing
 * each with `[redacted]`. Used on every error message the transport builds, as a last guard in
 * case a provider echoes a request header back in its error body.
 *
 * @param text Message to clean.
 * @param headers The request's headers; values shorter than 6 characters are left alone.
 */
export function redactSecrets(text: string, headers: Record<string, string> | undefined): string {
  if (!headers) return text;
  for (const name in headers) {
    if (!SECRET_HEADER.test(name)) continue;
    const value = headers[name];
    if (!value) continue;
    text = replaceAll(text, value);
    const space = value.indexOf(' ');
    if (space > 0) text = replaceAll(text, value.slice(space + 1).trim());
  }
  return text;
}

function replaceAll(text: string, secret: string): string {
  return secret.length >= MIN_SECRET_LENGTH && text.includes(secret)
    ? text.split(secret).join('[redacted]')
    : text;
}
