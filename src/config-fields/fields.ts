import type { z } from 'zod';
import {
  isLanguageTag,
  isMultilingualTag,
  LANGUAGE_TAG_EXPECTED,
  MULTILINGUAL_ELSEWHERE,
} from '../internal/language-tag.js';
import { zod } from '../internal/zod.js';
import {
  caseDuplicateHeaderMessage,
  caseDuplicateHeaders,
  forbiddenHeaderNamePattern,
  HEADER_NAME,
  headerNameProblem,
  INVALID_HEADER_NAME,
  isPseudoHeaderName,
} from './header-names.js';
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

/**
 * The http(s) rule as a JSON Schema pattern: after leading whitespace (which the check trims),
 * `http:` or `https:` in any case.
 */
const HTTP_URL_PATTERN = '^\\s*[Hh][Tt][Tt][Pp][Ss]?:';

/**
 * The credentials rule as a JSON Schema pattern, matching the URLs {@link hasCredentials}
 * refuses: an `@` in the authority (up to the first `/`, `?`, `#` or backslash) after a character
 * other than `:` (`http://:@host` has an empty user name and password, and passes).
 */
const URL_CREDENTIALS_PATTERN = '^\\s*[Hh][Tt][Tt][Pp][Ss]?:[/\\\\]*[^/?#\\\\]*[^:/?#\\\\][^/?#\\\\]*@';

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
    .overwrite(trimSlashes)
    // Both rules, for the JSON Schema (format "uri" alone takes any scheme and credentials).
    .meta({ pattern: HTTP_URL_PATTERN, not: { type: 'string', pattern: URL_CREDENTIALS_PATTERN } });
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
  return (
    z
      .record(z.string().min(1, 'must not be empty'), z.string().min(1, 'must not be empty'))
      .refine((map) => Object.keys(map).length > 0, { message: 'must map at least one name' })
      .describe(description)
      // The refine's rule, for the JSON Schema.
      .meta({ minProperties: 1 })
  );
}

/**
 * Extra HTTP request headers: name -> value, each value a literal or `{ env: 'NAME' }`. A name
 * the HTTP client cannot send or sets itself (not an HTTP field name, a pseudo-header, a
 * hop-by-hop header, `Content-Length`, `Host`, `Expect`...; see {@link headerNameProblem}) is
 * an issue at `headers.<name>` saying why, found when the config is parsed, before any request.
 * So is a name equal to an earlier one up to case (`X-Foo`, then `x-foo`): the issue is at the
 * later one, naming the first (see {@link caseDuplicateHeaders}).
 */
export function headersSchema(description: string) {
  const z = zod();
  return (
    z
      .record(
        z
          .string()
          // First, so that a pseudo-header's own reason is the issue's message (see toConfigIssues).
          .superRefine((name, ctx) => {
            const problem =
              HEADER_NAME.test(name) || isPseudoHeaderName(name) ? headerNameProblem(name) : undefined;
            if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
          })
          // Also the JSON Schema's `propertyNames` pattern.
          .regex(HEADER_NAME, INVALID_HEADER_NAME)
          // The superRefine's names, for the JSON Schema (names equal up to case it cannot say).
          .meta({ not: { type: 'string', pattern: forbiddenHeaderNamePattern() } }),
        secretSchema('Header value: a string, or { env: "NAME" } to read it from the environment.'),
      )
      // Names equal up to case are one header: an issue at the later name (runs whatever else failed).
      .superRefine(
        (headers, ctx) => {
          if (typeof headers !== 'object' || headers === null) return;
          for (const { name, first } of caseDuplicateHeaders(Object.keys(headers))) {
            ctx.addIssue({ code: 'custom', path: [name], message: caseDuplicateHeaderMessage(first) });
          }
        },
        { when: () => true },
      )
      .describe(description)
  );
}

/**
 * A strict object schema (an unknown key is an error) of one config section, e.g. a
 * provider's `tts`, `stt` or `chat`: `shape` builds its fields with zod's `z`.
 */
export function sectionSchema<Shape extends z.core.$ZodLooseShape>(
  description: string,
  shape: (zodNamespace: typeof z) => Shape,
): z.ZodObject<Shape, z.core.$strict> {
  const z = zod();
  return z.strictObject(shape(z)).describe(description);
}

/** A non-empty string the provider's API takes as it is: a model id. */
export function nonEmptyStringSchema(description: string) {
  return zod().string().min(1).describe(description);
}

/**
 * A language a provider section sends when a request gives none: a BCP 47 tag of a registered
 * language (`en`, `en-US`), checked by the same rule as a request's `language`
 * ({@link isLanguageTag}). Deepgram's `multi` only when `multilingual` is true (kinds
 * `deepgram` and `sagemaker`, MULTILINGUAL_KINDS); elsewhere it is an issue at the field saying
 * which kinds take it (MULTILINGUAL_ELSEWHERE).
 */
export function languageSchema(description: string, options: { multilingual?: boolean } = {}) {
  const tag = zod()
    .string()
    .refine(isLanguageTag, { message: `must be ${LANGUAGE_TAG_EXPECTED}` });
  if (options.multilingual === true) return tag.describe(description).meta({ pattern: LANGUAGE_TAG_SHAPE });
  return tag
    .refine((value) => !isMultilingualTag(value), { message: MULTILINGUAL_ELSEWHERE })
    .describe(description)
    .meta({ pattern: LANGUAGE_TAG_SHAPE, not: { type: 'string', pattern: MULTILINGUAL_PATTERN } });
}

/**
 * The shape of a BCP 47 tag as a JSON Schema pattern: subtags of letters and digits joined by
 * `-`, the first 2 to 8 letters. Every tag {@link isLanguageTag} accepts has it; whether the
 * language is a registered one only parseConfig can tell.
 */
const LANGUAGE_TAG_SHAPE = '^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$';

/** {@link isMultilingualTag} as a JSON Schema pattern: primary subtag `multi` in any case. */
const MULTILINGUAL_PATTERN = '^[Mm][Uu][Ll][Tt][Ii](?:-|$)';

/**
 * A whole number of milliseconds from `min` to `max`; the messages name the unit
 * (`must be >= 0 ms`) unless `minMessage`/`maxMessage` give the reason for a bound.
 */
export function msRangeSchema(range: { min: number; max: number; minMessage?: string; maxMessage?: string }) {
  return zod()
    .number()
    .int('must be a whole number of milliseconds')
    .min(range.min, range.minMessage ?? `must be >= ${range.min} ms`)
    .max(range.max, range.maxMessage ?? `must be <= ${range.max} ms`);
}

/** A sample rate: a whole number of Hz from 8000 to `maxHz`. */
export function sampleRateSchema(maxHz: number) {
  return zod()
    .number()
    .int('must be a whole number of Hz')
    .min(8_000, 'must be >= 8000 Hz')
    .max(maxHz, `must be <= ${maxHz} Hz`);
}

/**
 * A refinement of a provider section: an issue at `headers.<name>` with `message` for each
 * extra header whose name (compared case-insensitively) is in `reserved`, because the adapter
 * sets that header itself. Reads `headers` defensively: it may have failed its own schema.
 */
export function rejectReservedHeaders(
  provider: { headers?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
  reserved: readonly string[],
  message: string,
): void {
  const headers: unknown = provider.headers;
  if (typeof headers !== 'object' || headers === null) return;
  for (const name of Object.keys(headers)) {
    if (reserved.includes(name.toLowerCase())) {
      ctx.addIssue({ code: 'custom', path: ['headers', name], message });
    }
  }
}
