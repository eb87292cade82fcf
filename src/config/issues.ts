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
 *   names to values)`), not zod's `expected record, received undefined` nor the schema's
 *   `expected a string or { env }` (the parse must report inputs: `reportInput: true`);
 * - Infinity and NaN are `expected a finite number, got Infinity`; a bound zod words itself
 *   (`Too big: expected number to be <=1`) is `must be <= 1` (see boundWords);
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
    } else if (isMissing(issue)) {
      // A required field left out whose schema has its own wording ("expected a string or
      // { env }", an enum, a union): say it is missing, with what it takes.
      add(path, `required, but missing (${missingWords(issue)})`);
    } else if (issue.code === 'invalid_union' && isInstance(issue.input)) {
      // A class instance (a YAML `!!binary`, `!!timestamp` or `!!set` value: a Uint8Array, a
      // Date, a Set) matches no member: an object member would list its indexes as unknown
      // keys, or its fields as missing.
      add(path, `${issue.message}, got ${instanceWords(issue.input)}`);
    } else if (issue.code === 'invalid_union') {
      const informative = issue.errors.filter((branch) => !branch.every(isShallowMismatch));
      const only = informative.length === 1 ? informative[0] : undefined;
      if (only) for (const sub of toConfigIssues(only, path, knownKeys)) add(sub.path, sub.message);
      else add(path, issue.message);
    } else if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      add(path, `required, but missing (${expectedWords(issue.expected)})`);
    } else if (issue.code === 'invalid_type' && !('format' in issue)) {
      // zod: "Invalid input: expected string, received number"; Infinity and NaN are numbers
      // too, but not finite ones.
      const received = / received (\w+)$/.exec(issue.message)?.[1];
      if (received === 'Infinity' || received === 'NaN')
        add(path, `expected a finite number, got ${received}`);
      else
        add(path, `expected ${typeWords(issue.expected)}${received ? `, got ${typeWords(received)}` : ''}`);
    } else if (issue.code === 'invalid_type' && issue.expected === 'int' && isZodDefault(issue.message)) {
      add(path, 'must be a whole number');
    } else if ((issue.code === 'too_big' || issue.code === 'too_small') && isZodDefault(issue.message)) {
      add(path, boundWords(issue));
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

/** True for an object that is neither a list nor a plain object (`{}`, `Object.create(null)`). */
function isInstance(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto !== Object.prototype && proto !== null;
}

/** A class instance in words: binary data for bytes, else its class (`a Date`, `a Set`). */
function instanceWords(value: object): string {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return 'binary data';
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? typeWords(name) : 'an object of another kind';
}

/** True for zod's own wording of an issue ("Too big: ...", "Invalid input: ..."), which the schema did not replace. */
function isZodDefault(message: string): boolean {
  return /^(Too big|Too small|Invalid input)\b/.test(message);
}

/**
 * True when the issue is about a field that is absent (its `input`, reported by the parse,
 * is undefined), other than a cross-check's own words (code `custom`).
 */
function isMissing(issue: ZodIssue): boolean {
  return (
    issue.code !== 'custom' &&
    issue.code !== 'unrecognized_keys' &&
    'input' in issue &&
    issue.input === undefined
  );
}

/** What a missing field takes, from its issue: the schema's own words without `expected `, or the choices. */
function missingWords(issue: ZodIssue): string {
  if (issue.code === 'invalid_value' && issue.values.length > 0)
    return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_type') return expectedWords(issue.expected);
  return isZodDefault(issue.message) ? 'a value' : issue.message.replace(/^expected /, '');
}

/**
 * A size bound in the house style: numbers `must be <= 1` (`< 1` when exclusive), strings
 * `must not be empty` / `must be at most 63 characters`, lists `must have at least 1 entry`.
 */
function boundWords(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const bound = Number(
    big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum,
  );
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (!big && bound === 1) return 'must not be empty';
      return `must be at ${big ? 'most' : 'least'} ${bound} character${bound === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
    case 'map':
      if (!big && bound === 1) return 'must not be empty';
      return `must have at ${big ? 'most' : 'least'} ${bound} entr${bound === 1 ? 'y' : 'ies'}`;
    default:
      return `must be ${big ? '<' : '>'}${inclusive ? '=' : ''} ${bound}`;
  }
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
    case 'nonoptional':
      return 'a value';
    default:
      return typeWords(expected);
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
      return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
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
