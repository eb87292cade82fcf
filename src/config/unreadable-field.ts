/** How deep {@link unreadableField} looks: deeper than any valid config. */
const MAX_DEPTH = 32;

/** A field of a config object that cannot be read, and what reading it threw. */
export interface UnreadableField {
  /** Path of the field, e.g. `['providers', 'a', 'apiKey']`; of the object when its keys cannot be listed. */
  path: (string | number)[];
  /** What its getter (or a Proxy trap) threw. */
  error: unknown;
}

/**
 * The first field of `input` (a config as a user wrote it) whose reading throws: a getter that
 * throws (`get apiKey() { throw ... }`, own or inherited from a class, enumerable or not), or a
 * Proxy whose traps throw (then the path of the object itself); undefined when every field
 * reads. Each object is visited once (cycles end), at most 32 levels deep. Only called once the
 * parse threw something other than a ConfigError, so a valid config never pays for it.
 */
export function unreadableField(input: unknown): UnreadableField | undefined {
  const seen = new Set<object>();
  const visit = (value: unknown, path: (string | number)[], depth: number): UnreadableField | undefined => {
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value)) return undefined;
    seen.add(value);
    let names: string[];
    let array: boolean;
    try {
      array = Array.isArray(value);
      names = fieldNames(value, array);
    } catch (error) {
      return { path, error };
    }
    for (const name of names) {
      const at = [...path, array && /^\d+$/.test(name) ? Number(name) : name];
      let item: unknown;
      try {
        item = (value as Record<string, unknown>)[name];
      } catch (error) {
        return { path: at, error };
      }
      const found = visit(item, at, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(input, [], 0);
}

/** Own string keys of `value` (enumerable or not), then the getters of its classes' prototypes. */
function fieldNames(value: object, array: boolean): string[] {
  const names = Object.getOwnPropertyNames(value).filter((n) => !(array && n === 'length'));
  for (
    let proto = Object.getPrototypeOf(value);
    proto !== null && proto !== Object.prototype && proto !== Array.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (Object.getOwnPropertyDescriptor(proto, name)?.get && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
