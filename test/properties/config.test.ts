/**
 * Property tests of config parsing (issue 12): `parseConfig` of any value, or of a valid config
 * with one field replaced or removed, returns a resolved config or throws a ConfigError whose
 * message names every issue's path, each path leading into the input; never another throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { ConfigError, type ConfigIssue } from '../../src/errors/config-error.js';
import { type Loose, validConfig } from '../config/helpers.js';
import { RUNS } from './chunks.js';

const env = { OPENAI_API_KEY: 'sk-property-test-key' };

/** parseConfig's result, or the ConfigError it threw; any other throw fails the property. */
function parsed(input: unknown): { ok: true } | { ok: false; error: ConfigError } {
  try {
    parseConfig(input, { env });
    return { ok: true };
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    return { ok: false, error };
  }
}

/** The error lists each issue under its path (`(root)` for the config itself). */
function expectNamedPaths(error: ConfigError): void {
  expect(error.issues.length).toBeGreaterThan(0);
  for (const issue of error.issues) {
    expect(issue.path.every((p) => typeof p === 'string' || typeof p === 'number')).toBe(true);
    expect(typeof issue.message).toBe('string');
    const where = issue.path.length ? issue.path.join('.') : '(root)';
    expect(error.message).toContain(`  ${where}: `);
  }
}

/**
 * True when every element of `path` but the last exists in `input` (the issue is about
 * something there). A `[redacted]` element stands for a key equal to a configured secret (e.g.
 * an apiKey mutated to `openai`, a provider's name): the error never names a secret, even as a
 * path, so it matches the one key of `input` there whose name is a secret value.
 */
function leadsInto(input: unknown, issue: ConfigIssue, secrets: ReadonlySet<string>): boolean {
  let at: unknown = input;
  for (const raw of issue.path.slice(0, -1)) {
    if (typeof at !== 'object' || at === null) return false;
    const key =
      raw === '[redacted]'
        ? Object.keys(at).find((k) => secrets.has(k) && !Object.hasOwn(at as object, raw))
        : raw;
    if (key === undefined || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string | number, unknown>)[key];
  }
  return true;
}

/** The string values of every `apiKey` in a config tree (what the error redacts). */
function apiKeys(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'apiKey' && typeof v === 'string') out.add(v);
    else apiKeys(v, out);
  }
  return out;
}

/** Every path of a tree of plain objects and arrays, e.g. ['routes', 'tts', 'providers', 0]. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    out.push([...prefix, key], ...paths(v, [...prefix, key]));
  }
  return out;
}

const anyValue = fc.anything({
  maxDepth: 3,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withBoxedValues: true,
});

describe('parseConfig (property)', () => {
  it('the valid base config parses (the mutations below start from it)', () => {
    expect(parsed(validConfig())).toEqual({ ok: true });
  });

  it('any value at all: a resolved config or a ConfigError naming each path', () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, fc.jsonValue()), (input) => {
        const result = parsed(input);
        if (!result.ok) expectNamedPaths(result.error);
      }),
      RUNS,
    );
  });

  const mutation = fc.record({
    pick: fc.nat(),
    value: fc.oneof(
      anyValue,
      fc.constantFrom(undefined, null, '', 0, -1, 1.5, Number.NaN, [], {}, 'priority', 'openai', {
        env: 'UNSET_VAR',
      }),
    ),
    remove: fc.boolean(),
  });

  it('a valid config with any field replaced or removed: a config, or a ConfigError whose paths lead into it', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const config: Loose = validConfig();
        for (const { pick, value, remove } of mutations) {
          const all = paths(config);
          if (all.length === 0) break;
          const path = all[pick % all.length]!;
          const parent = path.slice(0, -1).reduce((o: Loose, k) => o[k], config);
          const key = path.at(-1)!;
          if (remove && !Array.isArray(parent)) delete parent[key];
          else parent[key] = value;
        }
        const result = parsed(config);
        if (result.ok) return;
        expectNamedPaths(result.error);
        for (const issue of result.error.issues) expect(leadsInto(config, issue, apiKeys(config))).toBe(true);
      }),
      RUNS,
    );
  });
});
