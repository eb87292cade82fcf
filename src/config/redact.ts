import type { ConfigIssue } from '../errors/config-error.js';
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

/** True for a string that {@link redactKeyShapes} would change: shaped like a key or credential. */
export function looksLikeKey(value: unknown): boolean {
  return typeof value === 'string' && redactKeyShapes(value) !== value;
}

/** A config field name: letters, digits and `_`, at most 32 characters. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** An HTTP field name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * True when `name`, a key of the object at `parent`, may be a secret written as a mapping key:
 * under a secret-named field, a name that is not a field name (under `headers`: not an HTTP
 * header name). A field name (`env`, a misspelt `fallback`, `secretAccessKey`) stays readable.
 */
function isSecretName(parent: string | number | undefined, name: string): boolean {
  // The parent must be a field name (`apiKey`, `authToken`), not itself a pasted key.
  if (typeof parent !== 'string' || !FIELD_NAME.test(parent) || !SECRET_KEY.test(parent)) return false;
  return !(/^headers$/i.test(parent) ? HEADER_NAME : FIELD_NAME).test(name);
}

/** Environment variable names whose values are taken as secrets (`OPENAI_API_KEY`, `AWS_SESSION_TOKEN`, ...). */
const SECRET_ENV = /key|token|secret|password|credential|auth/i;

/** Not a letter or digit before/after a key (`_` counts as an edge: `sk_...`, `name_KEY`). */
const L = '(?<![A-Za-z0-9])';
const R = '(?![A-Za-z0-9])';

/** Shapes of well-known API keys and credentials, redacted even when no config names them. */
const KEY_SHAPES = [
  // Prefixed keys: OpenAI `sk-`/`sk-proj-`, ElevenLabs `sk_`, Cartesia `sk_car_`, Groq `gsk_`,
  // Stripe-style `pk_`/`rk_`, xAI `xai-`: a body of 16+ characters with a digit.
  new RegExp(`${L}(?:sk|pk|rk|gsk|xai)[-_](?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{16,}`, 'g'),
  // AWS access key ids.
  new RegExp(`${L}(?:AKIA|ASIA)[0-9A-Z]{16}${R}`, 'g'),
  // `Bearer <credential>`: a credential starts with a letter or digit, so the absolute path
  // after jiti's "Unexpected token" (`/app/voxroute.config.ts:2:0`) is not taken for one.
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9][A-Za-z0-9._~+/=-]{7,}/gi,
  // Hex keys (Deepgram: 40 hex digits), either case.
  new RegExp(`${L}(?=[0-9a-fA-F]*\\d)(?:[0-9a-f]{32,}|[0-9A-F]{32,})${R}`, 'g'),
];

/** A run of key characters (base64, base64url, `_`, `-`) long enough to be a secret. */
const TOKEN = /[A-Za-z0-9/+=_-]{20,}/g;

/**
 * A word-like piece of a name between `-`, `_`, `/`, `+`, `=`: a lowercase, Capitalized or
 * camelCase word with up to 4 trailing digits (`east`, `Sonic`, `firstChunk`, `v3`, `ec2`),
 * an acronym with digits (`GPT4`, `US`) or a number.
 */
const WORDY = /^(?:[A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d{0,4}[a-z]?|[A-Z]{1,6}\d{0,4}|\d+)$/;

/** Characters of pieces that are not word-like, from which a token is taken for a secret. */
const MIN_RANDOM_CHARS = 12;

/**
 * True when `token` (20+ key characters) looks random rather than like a name: it has letters
 * and digits, and its pieces that are not word-like hold {@link MIN_RANDOM_CHARS}+ characters
 * (an AWS secret access key: 40 characters of letters, digits, `/` and `+`; not `deepgram-nova-3-us-east-1`).
 */
function looksRandom(token: string): boolean {
  if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  let random = 0;
  for (const piece of token.split(/[-_/+=]+/)) if (!WORDY.test(piece)) random += piece.length;
  return random >= MIN_RANDOM_CHARS;
}

/**
 * `text` with anything shaped like a well-known API key or credential replaced by `[redacted]`:
 * prefixed keys (`sk-`, `sk_`, `pk_`, `gsk_`...), AWS access key ids, `Bearer`/`Basic` tokens,
 * 32+ hex digits, and any 20+ character token of key characters that looks random (letters and
 * digits in pieces that are not words). Names (`openai-east-2`, `cartesia_sonic`) stay as they are.
 */
export function redactKeyShapes(text: string): string {
  const shaped = KEY_SHAPES.reduce((acc, shape) => acc.replace(shape, REDACTED), text);
  return shaped.replace(TOKEN, (token) => (looksRandom(token) ? REDACTED : token));
}

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
  const shapes = redactKeyShapes;
  if (typeof error === 'string') return shapes(redactWhole(error, secretForms(secrets))) as E;
  createErrorRedactor(secrets)(error);
  for (let e: unknown = error, i = 0; e instanceof Error && i < 8; e = e.cause, i++) {
    try {
      e.message = shapes(e.message);
      if (typeof e.stack === 'string') e.stack = shapes(e.stack);
    } catch {
      // frozen: left as is
    }
  }
  return error;
}
