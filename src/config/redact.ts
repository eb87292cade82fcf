import { HEADER_NAME, isPseudoHeaderName } from '../config-fields/header-names.js';
import type { ConfigIssue } from '../errors/config-error.js';
import { redactKeyShapes } from '../errors/key-shapes.js';
import { createErrorRedactor, redactWhole, SECRET_NAME, secretForms } from '../errors/redact.js';
import { urlSecretValues } from '../transport/url-secrets.js';

/** Keys under which every string is treated as a secret when redacting error messages. */
export const SECRET_KEY =
  /^(?:api_?key|headers|authorization|cookie|.*(?:secret|token|password|credential).*)$/i;

/** Shorter strings are not redacted: they would mangle ordinary words and are no real secret. */
const MIN_SECRET_LENGTH = 6;

/** What a redacted secret is replaced with in error messages. */
export const REDACTED = '[redacted]';

/** A `headers` field: its values are secrets only under credential header names. */
export const HEADERS_KEY = /^headers$/i;

/**
 * Collects the literal secret values in a raw config: every string at or below a key that
 * names a secret (`apiKey`, `token`, `password`, ...), and under `headers` the values of
 * credential headers (`Authorization`, `X-Api-Key`, `Cookie`, `X-Auth-Token`...; see
 * SECRET_NAME; `User-Agent` is no secret) and any header value shaped like a key
 * ({@link redactKeyShapes}: `X-Org: sk-...` under an unusual name), and in any URL (a `baseUrl`)
 * the secrets of its query and user info ({@link urlSecrets}), longest first. Variable names
 * (`{ env: 'NAME' }`) are not collected.
 */
export function collectSecretLiterals(input: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, secret: boolean, depth: number, headers = false) => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      if (secret && value.length >= MIN_SECRET_LENGTH) found.add(value);
      else for (const part of urlSecrets(value)) found.add(part);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, secret, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        // `{ env: 'NAME' }` names a variable; the name is not a secret.
        if (key === 'env') continue;
        if (headers) visit(item, secret || SECRET_NAME.test(key) || looksLikeKey(item), depth + 1);
        else if (HEADERS_KEY.test(key)) visit(item, secret, depth + 1, true);
        else visit(item, secret || SECRET_KEY.test(key), depth + 1);
      }
    }
  };
  visit(input, false, 0);
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * The ids a config names that are no secret (voice ids, model names, endpoint names, regions):
 * every string of 6+ characters with no white space and no `://`, outside secret-named keys and
 * `headers`, that is not one of its secret literals. Errors keep them readable even when one
 * looks random (an ElevenLabs voice id, a Cartesia voice UUID): see createErrorRedactor.
 */
export function collectConfigIds(input: unknown): string[] {
  const secrets = new Set(collectSecretLiterals(input));
  const found = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      if (value.length >= MIN_SECRET_LENGTH && !/\s|:\/\//.test(value) && !secrets.has(value))
        found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'env' || HEADERS_KEY.test(key) || SECRET_KEY.test(key)) continue;
        visit(item, depth + 1);
      }
    }
  };
  visit(input, 0);
  return [...found];
}

/**
 * Replaces secrets in the issues' messages and path segments by `[redacted]`, a last line of
 * defence so that no message a ConfigError builds ever holds a key, whatever a validator wrote:
 * - every literal secret of `input` (see collectSecretLiterals);
 * - anything shaped like a key or credential ({@link redactKeyShapes}), e.g. a key pasted as a
 *   provider name or a route entry;
 * - a path segment under a secret-named key that is not a field name (`apiKey: { sk-... }` in
 *   YAML makes the key a mapping key), or under `headers` not an HTTP header name
 *   (`"Authorization: Bearer sk-..."`).
 * The path still names where the problem is: `providers.a.apiKey.[redacted]: unknown key`.
 */
export function redactIssues(issues: ConfigIssue[], input: unknown): ConfigIssue[] {
  // Every form a secret may be written in (a URL-encoded key in a `baseUrl` query, `\/`...).
  const secrets = secretForms(collectSecretLiterals(input));
  // Whole secrets only: a config text is never cut, so a name that starts like a secret
  // (a provider `acme-gw` beside a key `acme-gw-7f3...`) stays readable.
  const scrub = (text: string) => redactKeyShapes(redactWhole(text, secrets));
  return issues.map((issue) => ({
    path: issue.path.map((segment, i) =>
      typeof segment !== 'string'
        ? segment
        : isSecretName(issue.path[i - 1], segment)
          ? REDACTED
          : scrub(segment),
    ),
    message: scrub(issue.message),
  }));
}

/** A URL with a query or user info: `scheme://...?...` or `scheme://user:pass@...`. */
const URL_WITH_SECRETS = /^[a-z][a-z0-9+.-]*:\/\/[^\s]*[?@]/i;

/**
 * The secrets written in a URL: the value of each query parameter with a credential name
 * (SECRET_NAME: `api-key`, `key`, `token`, `access_token`, `sig`, `code`...) or shaped like a
 * key under any name ({@link redactKeyShapes}), as written, decoded and re-encoded, and the user
 * info's password (see `urlSecretValues`: bad `%` escapes are tolerated). A server that echoes the request URL in an error must not show them. Values shorter
 * than 6 characters are no secret; a string that is no URL gives none.
 */
export function urlSecrets(value: string): string[] {
  if (!URL_WITH_SECRETS.test(value)) return [];
  return urlSecretValues(value, looksLikeKey).filter((part) => part.length >= MIN_SECRET_LENGTH);
}

export { redactKeyShapes };

/** True for a string that {@link redactKeyShapes} would change: shaped like a key or credential. */
export function looksLikeKey(value: unknown): boolean {
  return typeof value === 'string' && redactKeyShapes(value) !== value;
}

/** A config field name: letters, digits and `_`, at most 32 characters. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/**
 * True when `name`, a key of the object at `parent`, may be a secret written as a mapping key:
 * under a secret-named field, a name that is not a field name (under `headers`: neither an HTTP
 * header name nor an HTTP/2 pseudo-header such as `:authority`). A field name (`env`, a misspelt
 * `fallback`, `secretAccessKey`) stays readable.
 */
function isSecretName(parent: string | number | undefined, name: string): boolean {
  // The parent must be a field name (`apiKey`, `authToken`), not itself a pasted key.
  if (typeof parent !== 'string' || !FIELD_NAME.test(parent) || !SECRET_KEY.test(parent)) return false;
  if (/^headers$/i.test(parent)) return !HEADER_NAME.test(name) && !isPseudoHeaderName(name);
  return !FIELD_NAME.test(name);
}

/** Environment variable names whose values are taken as secrets (`OPENAI_API_KEY`, `AWS_SESSION_TOKEN`, ...). */
const SECRET_ENV = /key|token|secret|password|credential|auth/i;

/**
 * Removes secrets from the error of a config module that threw, in place (message, stack and
 * cause chain), before it becomes a ConfigError's cause: the values of environment variables
 * named like secrets, and anything shaped like a well-known API key or credential.
 */
export function redactModuleError<E>(error: E, env: Record<string, string | undefined> = process.env): E {
  const secrets = Object.entries(env)
    .filter(
      ([name, value]) =>
        SECRET_ENV.test(name) && typeof value === 'string' && value.length >= MIN_SECRET_LENGTH,
    )
    .map(([, value]) => value as string);
  if (typeof error === 'string') return redactKeyShapes(redactWhole(error, secretForms(secrets))) as E;
  // The redactor also takes out anything shaped like a credential (message, stack, causes).
  createErrorRedactor(secrets)(error);
  return error;
}
