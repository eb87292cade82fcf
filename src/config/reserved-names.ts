import type { ConfigIssue } from '../errors/config-error.js';

/** The name no config entry may have: JavaScript objects read it as their prototype. */
export const RESERVED_NAME = '__proto__';

/**
 * The places of a router config whose keys are names the user chooses (the schema's records:
 * test/cases/reserved-config-names.test.ts checks this list against the JSON Schema), as a path
 * with `*` for any key, and what such a name is, for the message.
 */
export const NAMED_RECORDS: ReadonlyArray<{ path: readonly string[]; names: string }> = [
  { path: ['providers'], names: 'a provider name' },
  { path: ['providers', '*', 'headers'], names: 'a header name' },
  { path: ['providers', '*', 'chat', 'models'], names: 'a model name' },
  { path: ['providers', '*', 'tts', 'voices'], names: 'a voice name' },
  { path: ['routes'], names: 'a route name' },
  { path: ['routes', '*', 'weights'], names: 'a provider name' },
  { path: ['routes', '*', 'costs'], names: 'a provider name' },
  { path: ['defaults', 'routes', 'weights'], names: 'a provider name' },
  { path: ['defaults', 'routes', 'costs'], names: 'a provider name' },
];

/**
 * An issue at `<record>.__proto__` for each record of `input` (see {@link NAMED_RECORDS}) that
 * holds an entry named `__proto__`: an own key (`JSON.parse`, YAML, a computed key), or an
 * object literal's `__proto__: {...}`, which sets the record's prototype (a plain object with no
 * `constructor` of its own) instead of adding an entry. The schema reads a record's own keys and
 * builds its copy by assignment, where `__proto__` sets the prototype: such an entry was dropped
 * without a word. Other names of Object.prototype's members (`constructor`, `toString`,
 * `hasOwnProperty`...) are ordinary names: they are own keys, kept, and looked up as own
 * properties (src/internal/own.ts).
 */
export function reservedNameIssues(input: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { path, names } of NAMED_RECORDS) {
    for (const [at, record] of objectsAt(input, path)) {
      if (!holdsReservedName(record)) continue;
      issues.push({
        path: [...at, RESERVED_NAME],
        message: `reserved name: '${RESERVED_NAME}' cannot be ${names} (JavaScript takes it for the object's prototype, not an entry); choose another name`,
      });
    }
  }
  return issues;
}

/** The objects (not arrays) of `input` at `path` (`*`: every own enumerable key), with their paths. */
function objectsAt(input: unknown, path: readonly string[]): Array<[string[], object]> {
  let found: Array<[string[], unknown]> = [[[], input]];
  for (const segment of path) {
    const next: Array<[string[], unknown]> = [];
    for (const [at, value] of found) {
      if (!isObject(value)) continue;
      if (segment === '*') {
        for (const key of Object.keys(value))
          next.push([[...at, key], (value as Record<string, unknown>)[key]]);
      } else {
        next.push([[...at, segment], (value as Record<string, unknown>)[segment]]);
      }
    }
    found = next;
  }
  return found.filter((entry): entry is [string[], object] => isObject(entry[1]));
}

function holdsReservedName(record: object): boolean {
  if (Object.hasOwn(record, RESERVED_NAME)) return true;
  const proto: unknown = Object.getPrototypeOf(record);
  if (proto === null || proto === Object.prototype || !isObject(proto)) return false;
  // A class's prototype (Map, a user's class) has its own `constructor`: not a literal's entry.
  if (Object.hasOwn(proto, 'constructor')) return false;
  const above: unknown = Object.getPrototypeOf(proto);
  return above === Object.prototype || above === null;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
