import type { SecretEnv } from '../config-fields/resolve-secrets.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { checkOptionalObject, checkString } from '../internal/arg-checks.js';
import { knownKeysAt } from './did-you-mean.js';
import { fastParseConfig } from './fast-parse.js';
import { toConfigIssues } from './issues.js';
import { configJsonSchema } from './json-schema.js';
import { quoteThrown } from './quote-thrown.js';
import { redactIssues } from './redact.js';
import { reservedNameIssues } from './reserved-names.js';
import { isResolvedConfig, resolveConfig } from './resolve.js';
import { routerConfigSchema } from './schema.js';
import type { ResolvedConfig } from './types.js';
import { unreadableField } from './unreadable-field.js';

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** Where `{ env: 'NAME' }` secrets are read from. Default `process.env`. */
  env?: SecretEnv | undefined;
  /** Where the config came from (a file path), named in error messages. */
  source?: string | undefined;
}

/**
 * Validates a router config (an object as a user writes it, see RouterConfig) and resolves
 * it: defaults applied, routes completed, `{ env }` secrets read from `options.env`. A config
 * that parseConfig or loadConfig already returned (see isResolvedConfig) is returned as is,
 * so callers such as createRouter can take either form.
 *
 * @throws ConfigError listing every invalid field with its full path, e.g.
 *   `routes.tts.providers.1: unknown provider "x"`, all at once. Secrets are checked after
 *   the rest of the config is valid: an unset or empty variable is an issue at the secret's
 *   path naming the variable. No message ever contains a secret's value. A Promise (an
 *   un-awaited loadConfig) is one issue at the root saying so. A provider, route, model,
 *   voice or header named `__proto__` is an issue at its path ("reserved name"), never
 *   dropped (see reservedNameIssues). A field that cannot be read (a getter that throws, a
 *   Proxy whose traps throw) is an issue at its path quoting what reading it threw (that error
 *   is the ConfigError's cause).
 * @throws TypeError when `options` is not an object, `options.env` is given but not an object,
 *   or `options.source` is given but not a string (a mistake in the call, not in the config).
 */
export function parseConfig(input: unknown, options: ParseConfigOptions = {}): ResolvedConfig {
  checkOptionalObject('parseConfig(input, options?): options', 'an object ({ env?, source? })', options);
  checkOptionalObject('parseConfig: options.env', 'an object of environment variables', options?.env);
  if (options?.source !== undefined) checkString('parseConfig: options.source', options.source);
  try {
    return parseReadable(input, options);
  } catch (error) {
    throw ConfigError.isInstance(error)
      ? error
      : (unreadableError(input, options.source, options.env) ?? error);
  }
}

/**
 * The ConfigError of a config with a field that cannot be read (a getter or a Proxy trap that
 * throws: see unreadableField), naming its path and what it threw; undefined when every field
 * reads (the error was something else, thrown as it is). What it threw is the cause, with
 * secret-named environment variables' values and anything shaped like a key taken out.
 */
function unreadableError(
  input: unknown,
  source: string | undefined,
  env: SecretEnv | undefined,
): ConfigError | undefined {
  const unreadable = unreadableField(input);
  if (unreadable === undefined) return undefined;
  // The config cannot be read for its secrets (redactIssues): key shapes and env secrets only.
  const { cause, text } = quoteThrown(unreadable.error, { envs: [env], name: 'always' });
  const message = `cannot be read: reading it threw (${text})`;
  return new ConfigError([{ path: unreadable.path, message }], {
    cause,
    ...(source === undefined ? {} : { source }),
  });
}

function parseReadable(input: unknown, options: ParseConfigOptions): ResolvedConfig {
  if (isResolvedConfig(input)) return input;
  if (isThenable(input)) {
    // The usual slip: createRouter(loadConfig(file)). Said plainly instead of "providers: required".
    const message = 'expected an object, got a Promise: did you forget `await loadConfig(...)`?';
    throw configError([{ path: [], message }], {}, options.source);
  }
  // An entry named `__proto__` would be dropped by the parse: an issue, with the schema's own.
  const reserved = reservedNameIssues(input);
  // A common, valid config is parsed without loading zod (about 100 ms); anything else by the schema.
  const fast = reserved.length === 0 ? fastParseConfig(input) : undefined;
  const parsed = fast
    ? ({ success: true, data: fast } as const)
    : routerConfigSchema().safeParse(input, { reportInput: true });
  if (!parsed.success || reserved.length > 0) {
    // The JSON Schema lists the keys allowed at each path, for did-you-mean; built only on error.
    let schema: Record<string, unknown> | undefined;
    const knownKeys = (path: (string | number)[]) => {
      schema ??= configJsonSchema();
      return knownKeysAt(schema, path);
    };
    const issues = parsed.success ? [] : toConfigIssues(parsed.error.issues, [], knownKeys);
    throw configError([...reserved, ...issues], input, options.source);
  }
  const issues: ConfigIssue[] = [];
  const config = resolveConfig(parsed.data, options.env ?? process.env, issues);
  if (issues.length > 0) throw configError(issues, input, options.source);
  return config;
}

function configError(issues: ConfigIssue[], input: unknown, source: string | undefined): ConfigError {
  return new ConfigError(redactIssues(issues, input), source === undefined ? {} : { source });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
