import type { ConfigIssue } from '../errors/config-error.js';
import { EnvSecretRef } from './secret.js';

/** `T` with every {@link EnvSecretRef} replaced by the string read from the environment. */
export type ResolveSecrets<T> = T extends EnvSecretRef
  ? string
  : T extends string | number | boolean | bigint | symbol | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? ResolveSecrets<U>[]
      : T extends object
        ? { [K in keyof T]: ResolveSecrets<T[K]> }
        : T;

/** The environment secrets are read from: variable name -> value (like `process.env`). */
export type SecretEnv = Record<string, string | undefined>;

/**
 * Returns a copy of `value` (plain objects and arrays, walked deeply) with every
 * {@link EnvSecretRef} replaced by the value of its variable in `env`. A variable that is
 * unset or empty adds an issue to `issues` at the secret's path (prefixed by `path`) naming
 * the variable, never a value, and leaves `undefined` in its place.
 */
export function resolveSecrets<T>(
  value: T,
  env: SecretEnv,
  issues: ConfigIssue[],
  path: (string | number)[] = [],
): ResolveSecrets<T> {
  return walk(value, env, issues, path) as ResolveSecrets<T>;
}

function walk(value: unknown, env: SecretEnv, issues: ConfigIssue[], path: (string | number)[]): unknown {
  if (value instanceof EnvSecretRef) {
    const found = env[value.env];
    if (found === undefined || found === '') {
      const state = found === undefined ? 'is not set' : 'is empty';
      issues.push({ path, message: `environment variable ${value.env} ${state}` });
      return undefined;
    }
    const checked = value.check ? value.check(found) : found;
    if (typeof checked !== 'string') {
      issues.push({ path, message: `environment variable ${value.env}: ${checked.error}` });
      return undefined;
    }
    return checked;
  }
  if (Array.isArray(value)) return value.map((item, i) => walk(item, env, issues, [...path, i]));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, env, issues, [...path, key]);
    return out;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
