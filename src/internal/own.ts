/**
 * `record[key]` when `key` is an own property of `record`, else undefined. A plain object
 * inherits `constructor`, `toString`, `hasOwnProperty`, `valueOf`, `__proto__`... from
 * Object.prototype, so `record[key]` with a caller's or a config's name (a voice, a model, a
 * route, a provider) would find those members for names nobody configured. Every lookup of such
 * a name goes through here.
 *
 * @param record A record keyed by names (config voices, models, routes, providers).
 * @param key The name looked up.
 */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key] = value` as an own entry, for every key: an assignment of `__proto__` would
 * set the record's prototype instead (and the entry would be lost).
 *
 * @param record A record keyed by names (config providers, mocks by provider name).
 * @param key The name set.
 * @param value Its value.
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
