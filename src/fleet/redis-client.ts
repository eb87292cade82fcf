import type { Redis, RedisOptions } from 'ioredis';

/** The two connections of a fleet: one for commands, one subscribed to the breaker channel. */
export interface FleetConnections {
  commands: Redis;
  subscriber: Redis;
}

/**
 * Options that keep Redis off the call path: no offline queue (a command sent while
 * disconnected fails at once instead of waiting), no retry of a command cut by a disconnect,
 * a command timeout, and a reconnect every 100 ms .. 2 s for as long as the router lives.
 * `disconnectTimeout`: ioredis's `disconnect()` arms a timer (2 s by default) that only the
 * socket's next 'close' clears; a socket already closed (a refused connect) never closes again,
 * so the default held the process 2 s after `router.close()`. 50 ms still lets a live socket end.
 */
export const FLEET_REDIS_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 1_000,
  connectTimeout: 2_000,
  disconnectTimeout: 50,
  autoResubscribe: false,
  lazyConnect: false,
  retryStrategy: (times) => Math.min(100 * times, 2_000),
};

/**
 * Loads the optional peer dependency `ioredis` (only when a config has a `health` section;
 * importing voxroute never loads it) and opens both connections to `url`.
 * @throws Error naming the missing package when ioredis is not installed.
 */
export async function connectFleet(url: string): Promise<FleetConnections> {
  let module: { Redis?: typeof Redis; default?: { Redis?: typeof Redis } };
  try {
    module = (await import('ioredis')) as unknown as typeof module;
  } catch {
    throw new Error(
      'the config has a `health` section but the optional package ioredis is not installed: npm install ioredis',
    );
  }
  // ESM import of the CommonJS build: the named export, or under `default` in some loaders.
  const RedisClass = (module.Redis ?? module.default?.Redis) as typeof Redis;
  const commands = new RedisClass(url, FLEET_REDIS_OPTIONS);
  const subscriber = new RedisClass(url, FLEET_REDIS_OPTIONS);
  return { commands, subscriber };
}
