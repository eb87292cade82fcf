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

/**
 * A value given where one of a few names was expected (an encoding, a role, a capability), for
 * an error message: a string quoted, cut at 40 characters (a name, not free text), anything
 * else by {@link valueShape}.
 */
export function nameOrShape(value: unknown): string {
  return typeof value === 'string' ? `'${value.slice(0, 40)}'` : valueShape(value);
}
