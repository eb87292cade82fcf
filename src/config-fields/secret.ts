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

/** What a user writes for a secret: the value itself, or the name of an environment variable. */
export type SecretInput = string | { env: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Schema of `{ env: 'NAME' }`, before it becomes an {@link EnvSecretRef}. */
export const envRefSchema = lazySchema((z) =>
  z
    .strictObject({
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
 * is read later by {@link resolveSecrets}. Its error messages never contain the value.
 */
export function secretSchema(description: string) {
  const z = zod();
  return z
    .union([z.string().min(1, 'must not be empty'), envRefSchema()], {
      error: 'expected a string or { env: "VARIABLE_NAME" }',
    })
    .transform((value) => (typeof value === 'string' ? value : new EnvSecretRef(value.env)))
    .describe(description);
}
