import { zod } from '../internal/zod.js';
import { EnvSecretRef, envRefSchema, secretSchema } from './secret.js';

/**
 * Largest delay Node's timers honour: a `setTimeout` longer than 2^31 - 1 ms fires at once
 * (Node.js docs, `setTimeout`), so longer durations are rejected instead of misbehaving.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** A duration in whole milliseconds, > 0 and <= {@link MAX_TIMER_MS}. */
export function msSchema(description: string) {
  const z = zod();
  return z
    .number()
    .int('must be a whole number of milliseconds')
    .positive('must be > 0 ms')
    .max(MAX_TIMER_MS, `must be <= ${MAX_TIMER_MS} ms (the longest timer Node.js supports)`)
    .describe(description);
}

const URL_PROTOCOL_ERROR = 'must be an http:// or https:// URL';
const URL_CREDENTIALS_ERROR =
  'must not contain a user name or password: put credentials in apiKey or headers';

/** True when `url` parses and carries a user name or password. */
function hasCredentials(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed !== undefined && (parsed.username !== '' || parsed.password !== '');
}

/** `url` without trailing slashes, so adapters can append `/chat/completions` and the like. */
function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Checks an http(s) URL read from an environment variable, as {@link httpUrlSchema} checks a
 * literal one; the error messages never quote the value.
 */
export function checkHttpUrl(value: string): string | { error: string } {
  const parsed = URL.canParse(value) ? new URL(value) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return { error: URL_PROTOCOL_ERROR };
  if (hasCredentials(value)) return { error: URL_CREDENTIALS_ERROR };
  return trimSlashes(value);
}

/**
 * An http:// or https:// base URL without credentials in it (credentials belong in `apiKey`
 * or `headers`, which are never logged), written as the URL itself or as `{ env: 'NAME' }` to
 * read it from the environment when the config is loaded (then checked the same way). Parses
 * to the URL without trailing slashes, so adapters can append `/chat/completions` and the
 * like, or to an {@link EnvSecretRef} that resolves to one.
 */
export function httpUrlSchema(description: string) {
  const z = zod();
  const literal = z
    .url({ protocol: /^https?$/, error: URL_PROTOCOL_ERROR })
    // Runs even when the format check failed: only a URL that parses can hold credentials.
    .refine((url) => !hasCredentials(url), { message: URL_CREDENTIALS_ERROR })
    .overwrite(trimSlashes);
  // The transform sits on the env member only: a default on the union stays in the JSON Schema.
  const fromEnv = envRefSchema().transform((value) => new EnvSecretRef(value.env, checkHttpUrl));
  return z
    .union([literal, fromEnv], { error: 'expected an http:// or https:// URL or { env: "VARIABLE_NAME" }' })
    .describe(description);
}

/**
 * A map from logical names (what requests use: a voice such as `agent`, a model such as
 * `fast`) to the provider's own ids. Needs at least one entry.
 */
export function idMapSchema(description: string) {
  const z = zod();
  return z
    .record(z.string().min(1, 'must not be empty'), z.string().min(1, 'must not be empty'))
    .refine((map) => Object.keys(map).length > 0, { message: 'must map at least one name' })
    .describe(description);
}

/** An HTTP field name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Extra HTTP request headers: name -> value, each value a literal or `{ env: 'NAME' }`. */
export function headersSchema(description: string) {
  const z = zod();
  return z
    .record(
      z.string().regex(HEADER_NAME, 'must be an HTTP header name'),
      secretSchema('Header value: a string, or { env: "NAME" } to read it from the environment.'),
    )
    .describe(description);
}
