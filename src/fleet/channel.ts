/**
 * The pub/sub channel of the fleet of `keyPrefix` on the Redis database that `url` names.
 *
 * Keys live in one database (the URL's path, `redis://host/2`, or ioredis's `db` query
 * parameter), but pub/sub channels are server-wide: routers that keep their state apart in
 * databases 0 and 1 of one server would still hear each other's breaker openings. The channel
 * of database 0 (the default) is `<prefix>health`, as it always was; any other database's is
 * `<prefix>health:db<n>`.
 */
export function fleetChannel(keyPrefix: string, url: string): string {
  const db = databaseOf(url);
  return db === '0' ? `${keyPrefix}health` : `${keyPrefix}health:db${db}`;
}

/** The database `url` selects, as ioredis reads it (its path, else `?db=`), '0' by default. */
function databaseOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return '0';
  const raw = parsed.pathname.length > 1 ? parsed.pathname.slice(1) : (parsed.searchParams.get('db') ?? '');
  if (raw === '') return '0';
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? String(n) : raw;
}
