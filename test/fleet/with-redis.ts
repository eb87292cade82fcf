import { afterAll, beforeAll, describe } from 'vitest';
import { HAS_REDIS, NO_REDIS_REASON, RedisServer } from './helpers.js';

/**
 * A describe block titled `title` whose tests share a real Redis server (`body` gets it), started
 * before its tests and killed after them; skipped, with the reason added to its title, when
 * redis-server is not on PATH. Not in ./helpers.ts, which the fixtures' child processes load
 * without vitest.
 */
export function describeWithRedis(title: string, body: (redis: RedisServer) => void): void {
  describe.skipIf(!HAS_REDIS)(`${title}${HAS_REDIS ? '' : ` (${NO_REDIS_REASON})`}`, () => {
    const redis = new RedisServer();
    beforeAll(() => redis.start());
    afterAll(() => redis.kill());
    body(redis);
  });
}
