import { zod } from '../internal/zod.js';
import { secretSchema } from './secret.js';

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

/**
 * An http:// or https:// base URL without credentials in it (credentials belong in `apiKey`
 * or `headers`, which are never logged). Parses to the URL without trailing slashes, so
 * adapters can append `/chat/completions` and the like.
 */
export function httpUrlSchema(description: string) {
  const z = zod();
  return z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine(
      (url) => {
        // Runs even when the format check failed: only a URL that parses can hold credentials.
        const parsed = URL.canParse(url) ? new URL(url) : undefined;
        return parsed === undefined || (parsed.username === '' && parsed.password === '');
      },
      { message: 'must not contain a user name or password: put credentials in apiKey or headers' },
    )
    .overwrite((url) => url.replace(/\/+$/, ''))
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
