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
