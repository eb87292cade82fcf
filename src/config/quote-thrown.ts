import type { SecretEnv } from '../config-fields/resolve-secrets.js';
import { redactModuleError } from './redact.js';

/** What a config's own code threw, ready to quote in a ConfigError. */
export interface QuotedThrown {
  /** The thrown value, redacted in place (message, stack, causes): a ConfigError's `cause`. */
  cause: unknown;
  /** Its one line of text, redacted: `Name: message` (see {@link quoteThrown}'s `name`). */
  text: string;
}

/**
 * The one way a ConfigError quotes what a config's own code threw (a module that throws or
 * fails to compile, a config function, a getter or Proxy trap): the thrown value redacted in
 * place by redactModuleError (the values of secret-named variables of `process.env` and of each
 * of `envs`, and anything shaped like a key or credential), and its message on one line,
 * redacted again as a whole (a key cut across the name and the message). `name`: `'always'`
 * prefixes the error's name (`Error: x`), `'unless-plain'` (default) only when it is not a plain
 * `Error` (`RangeError: x`, but `x`), `'never'` gives the message alone.
 */
export function quoteThrown(
  thrown: unknown,
  options: { envs?: readonly (SecretEnv | undefined)[]; name?: NameStyle } = {},
): QuotedThrown {
  // One pass over the variables of every env together, so that the longest secret goes first
  // whichever env holds it (each name kept whole behind its env's number, for the name test).
  const merged: SecretEnv = {};
  [process.env, ...(options.envs ?? [])].forEach((env, i) => {
    for (const [name, value] of Object.entries(env ?? {})) merged[`${i}.${name}`] = value;
  });
  const redact = <T>(value: T): T => redactModuleError(value, merged);
  const cause = redact(thrown);
  return { cause, text: redact(oneLine(cause, options.name ?? 'unless-plain')) };
}

type NameStyle = 'always' | 'unless-plain' | 'never';

function oneLine(error: unknown, name: NameStyle): string {
  const text = error instanceof Error ? `${prefix(error.name, name)}${error.message}` : describe(error);
  return text.replace(/\s+/g, ' ').trim() || 'unknown error';
}

function prefix(errorName: string, style: NameStyle): string {
  if (style === 'never' || (style === 'unless-plain' && errorName === 'Error')) return '';
  return `${errorName}: `;
}

/** String(value), or a stand-in when even that throws (an object whose toString throws). */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'a value that cannot be printed';
  }
}
