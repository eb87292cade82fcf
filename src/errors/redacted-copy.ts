import type { ErrorRedactor } from './redact.js';

/** How deep a copy goes: as deep as the redactor walks. */
const MAX_DEPTH = 8;

/**
 * `value` (an error, or anything thrown) with no secret of `redact`'s in it, without changing
 * it: `value` itself when `redact` finds nothing to remove; otherwise a copy that `redact` has
 * cleaned. The copy has the same prototype (same class, `name`, `instanceof`), the same own
 * properties (`message`, `stack`, `cause`, `errors`, fields) and the same shape below it:
 * errors, arrays and plain objects are copied as deep as the redactor walks, anything else is
 * shared. A string is returned cleaned. For an error that is not ours to change: the caller's
 * own error, quoted in one of voxroute's errors (the caller may still hold and show it).
 */
export function redactedCopy<T>(value: T, redact: ErrorRedactor): T {
  if (typeof value === 'string') return redact({ value }).value as T;
  if (typeof value !== 'object' || value === null) return value;
  const strings: Array<[Record<PropertyKey, unknown>, PropertyKey, string]> = [];
  const copy = copyOf(value, new Map(), 0, strings);
  redact(copy);
  return strings.some(([holder, key, text]) => holder[key] !== text) ? copy : value;
}

/** A copy of `value` for the redactor to clean, recording each string field copied in `strings`. */
function copyOf<T>(
  value: T,
  seen: Map<object, unknown>,
  depth: number,
  strings: Array<[Record<PropertyKey, unknown>, PropertyKey, string]>,
): T {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  const array = Array.isArray(value);
  if (!array && !(value instanceof Error) && !isPlain(value)) return value;
  const copy = (array ? [] : Object.create(Object.getPrototypeOf(value))) as Record<PropertyKey, unknown>;
  seen.set(value, copy);
  const source = value as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(source)) {
    if (array && key === 'length') continue;
    let field: unknown;
    try {
      field = source[key];
    } catch {
      continue;
    }
    const copied = copyOf(field, seen, depth + 1, strings);
    Object.defineProperty(copy, key, {
      value: copied,
      writable: true,
      configurable: true,
      enumerable: Object.prototype.propertyIsEnumerable.call(source, key),
    });
    if (typeof copied === 'string') strings.push([copy, key, copied]);
  }
  return copy as T;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
