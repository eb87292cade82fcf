import { redactWhole, SECRET_NAME } from '../errors/redact.js';
import { collectSecretLiterals, HEADERS_KEY, looksLikeKey, REDACTED, SECRET_KEY } from './redact.js';

/** Node's `util.inspect.custom` (a registered symbol, so node:util need not be imported). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes the secrets of a resolved config print as `[redacted]` while the code keeps reading
 * them as plain strings: every plain object of the config gets two non-enumerable methods,
 * `toJSON` (JSON.stringify) and `util.inspect.custom` (console.log, util.inspect), that return a
 * copy in which the secrets are replaced. Secrets are the strings under a secret-named key
 * (`apiKey`, `credentials`, `secretAccessKey`, `token`...), the values of credential headers
 * (and of any header shaped like a key), and, inside any other string (a `baseUrl`, the
 * health `url`), the secrets of its query and user info and every secret above. Being
 * non-enumerable, the methods are not copied by a spread (`{ ...provider }` is a plain object
 * again, with the same values).
 *
 * What is a secret is decided when the object is printed, from what `config` (and each of
 * `alsoFrom`, configs that share objects with it) holds then: a key or a URL put into the config
 * after it was resolved (`config.providers.a.apiKey = key`, a `baseUrl` with `?api_key=`) prints
 * as `[redacted]` too, wherever it appears in the config. An object attached later (a new
 * provider, `credentials` object) is redacted when printed as part of the config or of a
 * printed ancestor; printed on its own it is the caller's object, as the caller made it.
 */
export function redactWhenPrinted(config: object, ...alsoFrom: object[]): void {
  const roots = [config, ...alsoFrom];
  const copy = (
    value: unknown,
    secret: boolean,
    headers: boolean,
    depth: number,
    secrets: readonly string[],
  ): unknown => {
    if (typeof value === 'string') return secret ? REDACTED : redactWhole(value, secrets);
    if (depth > 32 || typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item) => copy(item, secret, false, depth + 1, secrets));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const printed = headers
        ? copy(item, secret || SECRET_NAME.test(key) || looksLikeKey(item), false, depth + 1, secrets)
        : HEADERS_KEY.test(key)
          ? copy(item, secret, true, depth + 1, secrets)
          : copy(item, secret || SECRET_KEY.test(key), false, depth + 1, secrets);
      // Defined, not assigned: every key prints as an entry, `__proto__` included.
      Object.defineProperty(out, key, {
        value: printed,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  const hook = (value: unknown, secret: boolean, headers: boolean, depth: number): void => {
    if (depth > 32 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) hook(item, secret, false, depth + 1);
      return;
    }
    // The secrets of the configs as they are when printed (and of the value itself, in case it
    // was detached from them since), longest first.
    const printed = () => copy(value, secret, headers, 0, collectSecretLiterals([...roots, value]));
    Object.defineProperty(value, 'toJSON', { value: printed, configurable: true });
    Object.defineProperty(value, INSPECT, { value: printed, configurable: true });
    for (const [key, item] of Object.entries(value)) {
      if (headers) hook(item, secret || SECRET_NAME.test(key), false, depth + 1);
      else if (HEADERS_KEY.test(key)) hook(item, secret, true, depth + 1);
      else hook(item, secret || SECRET_KEY.test(key), false, depth + 1);
    }
  };
  hook(config, false, false, 0);
}
