/**
 * A value's type for an error message, never its content (it may be a key given by mistake):
 * `null`, `an array`, `an object (Map)` (with its built-in tag: `Object`, `Map`, `Date`...), or
 * its `typeof` (`string`, `number`, `function`...).
 */
export function valueShape(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value;
}
