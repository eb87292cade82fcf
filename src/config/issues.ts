import type { z } from 'zod';
import type { ConfigIssue } from '../errors/config-error.js';
import { didYouMean } from './did-you-mean.js';

type ZodIssue = z.core.$ZodIssue;
type Path = (string | number)[];

/**
 * Turns zod issues into ConfigIssues with full paths, most specific first:
 * - an unknown key becomes one issue per key, at the key's own path (`unknown key`), with a
 *   did-you-mean when `knownKeys` (the keys allowed at a path) has a near miss of it
 *   (`unknown key; did you mean "baseUrl"?` for `baseURL`, see didYouMean);
 * - a failed union whose input matched one member's shape (e.g. `{ env: 5 }` for a secret,
 *   `-1` for `firstChunkTimeoutMs`) reports that member's issues instead of "Invalid input";
 * - a required field that is absent says so in words (`required, but missing (an object of
 *   names to values)`), not zod's `expected record, received undefined`;
 * - a value not among an enum's is `must be one of "a", "b"`, not zod's `Invalid option: ...`,
 *   and is dropped where a cross-check (a custom issue) speaks about the same path;
 * - identical issues are reported once.
 * Messages come from the schema and never quote the input value.
 */
export function toConfigIssues(
  issues: readonly ZodIssue[],
  prefix: Path = [],
  knownKeys?: (path: Path) => readonly string[],
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const seen = new Set<string>();
  // A field a cross-check speaks about gets that issue only, not also the schema's generic one.
  const specific = new Set(
    issues
      .filter((i) => i.code === 'custom')
      .map((i) => JSON.stringify([...prefix, ...i.path.map(toSegment)])),
  );
  const add = (path: Path, message: string) => {
    const key = JSON.stringify([path, message]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ path, message });
  };
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map(toSegment)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const meant = knownKeys ? didYouMean(key, knownKeys(path)) : undefined;
        add([...path, key], meant ? `unknown key; did you mean "${meant}"?` : 'unknown key');
      }
    } else if (issue.code === 'invalid_union') {
      const informative = issue.errors.filter((branch) => !branch.every(isShallowMismatch));
      const only = informative.length === 1 ? informative[0] : undefined;
      if (only) for (const sub of toConfigIssues(only, path, knownKeys)) add(sub.path, sub.message);
      else add(path, issue.message);
    } else if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      add(path, `required, but missing (${expectedWords(issue.expected)})`);
    } else if (issue.code === 'invalid_type' && !('format' in issue)) {
      // zod: "Invalid input: expected string, received number".
      const received = / received (\w+)$/.exec(issue.message)?.[1];
      add(path, `expected ${typeWords(issue.expected)}${received ? `, got ${typeWords(received)}` : ''}`);
    } else if (issue.code === 'invalid_value' && specific.has(JSON.stringify(path))) {
      // Replaced by the cross-check's issue at the same path.
    } else if (issue.code === 'invalid_value' && issue.values.length > 1) {
      // zod: `Invalid option: expected one of "a"|"b"`; the house style names the choices.
      add(path, `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`);
    } else if (issue.code === 'invalid_key') {
      // A record's key that fails its own schema (e.g. a header name): say why, not zod's "Invalid key in record".
      add(path, issue.issues[0]?.message ?? 'not a valid name here');
    } else {
      add(path, issue.message);
    }
  }
  return out;
}

/** zod's name of an expected type in plain words: `record` -> `an object of names to values`. */
function expectedWords(expected: string): string {
  switch (expected) {
    case 'record':
      return 'an object of names to values';
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    case 'string':
    case 'number':
    case 'boolean':
      return `a ${expected}`;
    default:
      return `expected ${expected}`;
  }
}

/** A zod type name in plain words: `string` -> `a string`, `array` -> `a list`. */
function typeWords(name: string): string {
  switch (name) {
    case 'record':
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    case 'int':
      return 'an integer';
    case 'null':
    case 'undefined':
      return name;
    default:
      return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
  }
}

/**
 * An issue that says only "this value is not of this member's type at all". A number that
 * is not an integer is also an `invalid_type` (expected `int`), but one with a `format`:
 * that is a near miss worth reporting.
 */
function isShallowMismatch(issue: ZodIssue): boolean {
  if (issue.path.length > 0) return false;
  if (issue.code === 'invalid_value') return true;
  return issue.code === 'invalid_type' && !('format' in issue);
}

function toSegment(segment: PropertyKey): string | number {
  return typeof segment === 'number' ? segment : String(segment);
}
