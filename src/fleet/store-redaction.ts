import { redactKeyShapes } from '../errors/key-shapes.js';
import { createErrorRedactor } from '../errors/redact.js';
import { redactedCopy } from '../errors/redacted-copy.js';
import { urlSecretValues } from '../transport/url-secrets.js';

/** What the store's URL is replaced with in a message. */
export const STORE_URL_TEXT = '<redis url>';

/**
 * A function that cleans a message of the shared store's client (ioredis) or of the store
 * itself (a Redis error reply) before it becomes a fleet `'error'` event, `stats().fleet.lastError`
 * or a log line: the whole `url` becomes `<redis url>`, and the URL's secrets (the user info's
 * password and any query value named like a credential, `?password=`, or shaped like a key, as
 * written and decoded: see urlSecretValues) are redacted in every form the router's error
 * redaction knows (any letter case, cut or masked, percent-encoded, base64, JSON-escaped...: see
 * createErrorRedactor), as is anything shaped like a credential. A Redis server or proxy may
 * quote the password it refused in its error reply, in any of those forms. A bad `%` escape in
 * the URL is tolerated (the value as written is redacted).
 */
export function storeMessageRedactor(url: string): (message: string) => string {
  const secrets = urlSecretValues(url, (value) => redactKeyShapes(value) !== value);
  const redact = createErrorRedactor(secrets);
  return (message) => redactedCopy(url === '' ? message : message.split(url).join(STORE_URL_TEXT), redact);
}
