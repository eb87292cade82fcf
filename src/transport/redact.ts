import { redactText, SECRET_NAME, secretForms } from '../errors/redact.js';

/**
 * Removes from `text` every value of a secret-bearing request header (names containing auth,
 * key, token, secret, cookie, signature, password or credential, e.g. `Authorization`, `x-api-key`,
 * `xi-api-key`), and the credential part of `Bearer <token>` / `Basic <token>` values, replacing
 * each with `[redacted]`, in every form a server may echo it (URL-encoded, every byte
 * percent-encoded, JSON-escaped `\/`, base64, HTML character references, a byte array, UTF-16,
 * hex, a `Basic` header's decoded `user:key`: the router's own list, `secretForms`, computed once
 * per set of header values, not per message); also a start of one of them that a server echoed
 * cut or masked (see `redactText`). Used on every error message the transport builds, as a last
 * guard in case a provider echoes a request header back in its error body.
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
  const values: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value && SECRET_NAME.test(name)) values.push(value);
  }
  if (values.length === 0) return text;
  const secrets = secretForms(values);
  return secrets.length === 0
    ? text
    : redactText(text, secrets, provider === undefined ? undefined : new Set([provider]));
}
