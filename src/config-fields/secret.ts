import { lazySchema, zod } from '../internal/zod.js';

/**
 * A secret the config names by environment variable (`{ env: 'NAME' }`), as it is after
 * the schema has parsed it and before {@link resolveSecrets} has read the variable. Holds
 * the variable's name only, never a value.
 */
export class EnvSecretRef {
  /** Name of the environment variable that holds the secret, e.g. `'OPENAI_API_KEY'`. */
  readonly env: string;
  /**
   * Checks and normalises the variable's value once read (e.g. a URL): returns the value to
   * use, or `{ error }`, a message that must not quote the value. Absent: taken as is.
   */
  readonly check: ((value: string) => string | { error: string }) | undefined;

  constructor(env: string, check?: (value: string) => string | { error: string }) {
    this.env = env;
    this.check = check;
  }
}

/**
 * Why a secret's text cannot be sent, or undefined when it can. A secret ends up in an HTTP
 * header (an API key, a header value, AWS credentials), whose value may not hold control
 * characters or characters past Latin-1 (RFC 9110 5.5; undici and node:http refuse such a
 * header before sending anything). The usual cause is a value read with its line break
 * (a key file read as it is, `readFileSync('key.txt', 'utf8')`, or a CRLF `.env` file). The text is
 * rejected rather than trimmed: a secret is used exactly as given (docs/decisions.md "A secret
 * with a line break is a config error, not trimmed"). The message never quotes the value.
 */
export function secretTextProblem(value: string): string | undefined {
  let wide = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f)
      return 'contains a line break or control character (check the file or environment value for a trailing newline)';
    if (code > 0xff) wide = true;
  }
  if (wide)
    return 'contains a character an HTTP header cannot carry (past Latin-1, e.g. a typographic quote or a zero-width space)';
  return undefined;
}

/**
 * The text {@link secretTextProblem} accepts, as a JSON Schema pattern: visible ASCII, space and
 * the rest of Latin-1 (no control character, nothing past U+00FF).
 */
const SENDABLE_TEXT_PATTERN = '^[\\u0020-\\u007e\\u0080-\\u00ff]*$';

/** {@link secretTextProblem} as an {@link EnvSecretRef} check: the value, or `{ error }`. */
export function checkSecretText(value: string): string | { error: string } {
  const problem = secretTextProblem(value);
  return problem === undefined ? value : { error: problem };
}

/**
 * A string the config sends in an HTTP header as it is (a secret, a version): non-empty, with
 * no character {@link secretTextProblem} refuses; messages never quote it.
 */
export function headerTextSchema() {
  const z = zod();
  return z
    .string()
    .min(1, 'must not be empty')
    .superRefine((value, ctx) => {
      const problem = secretTextProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ pattern: SENDABLE_TEXT_PATTERN });
}

/** What a user writes for a secret: the value itself, or the name of an environment variable. */
export type SecretInput =
  | string
  | {
      /**
       * Name of the environment variable holding the secret, e.g. `'OPENAI_API_KEY'`; read by
       * parseConfig and loadConfig (a variable unset or empty there is a ConfigError naming it).
       */
      env: string;
    };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Schema of `{ env: 'NAME' }`, before it becomes an {@link EnvSecretRef}. */
export const envRefSchema = lazySchema((z) =>
  z
    .strictObject({
      /** Name of the environment variable that holds the secret, read when the config is loaded. */
      env: z
        .string()
        .regex(
          ENV_NAME,
          'must be an environment variable name (letters, digits and _, not starting with a digit)',
        )
        .describe('Name of the environment variable that holds the secret, read when the config is loaded.'),
    })
    .describe('A secret read from an environment variable when the config is loaded.'),
);

/**
 * Schema of a secret (an API key, a header value): a non-empty literal string, or
 * `{ env: 'NAME' }`. Parses to the string itself or to an {@link EnvSecretRef}; the variable
 * is read later by {@link resolveSecrets}. Either way the text may not hold a line break or
 * another character an HTTP header cannot carry ({@link secretTextProblem}): a ConfigError at
 * the secret's path when the config is loaded. Its error messages never contain the value.
 */
export function secretSchema(description: string) {
  const z = zod();
  return z
    .union([headerTextSchema(), envRefSchema()], {
      error: 'expected a string or { env: "VARIABLE_NAME" }',
    })
    .transform((value) => (typeof value === 'string' ? value : new EnvSecretRef(value.env, checkSecretText)))
    .describe(description);
}
