/**
 * A fleet store that refuses connections must not keep the process alive after `router.close()`.
 * ioredis arms a `disconnectTimeout` timer (2 s by default) on `disconnect()`, cleared only by
 * the socket's next 'close' event; a socket already closed by the refused connect never sends
 * another, so the process lingered 2 s after close. The fleet's connections set it to
 * FLEET_REDIS_OPTIONS.disconnectTimeout. Needs no Redis: the child's store is a closed port.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLEET_REDIS_OPTIONS } from '../../src/fleet/redis-client.js';

const root = resolve(import.meta.dirname, '../..');

/** A loopback port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe('fleet store unreachable: router.close() lets the process exit', () => {
  it('lifetime-after-close: exits within the disconnect timeout, not ioredis default 2 s', async () => {
    const port = await closedPort();
    const child = spawnSync(
      process.execPath,
      ['scripts/run-ts.mjs', 'test/fleet/fixtures/close-unreachable.ts', String(port)],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.status).toBe(0);
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    const { exitAfterCloseMs } = JSON.parse(line) as { exitAfterCloseMs: number };
    // ioredis' default would hold the process 2 000 ms; the bound leaves room for a loaded machine.
    expect(exitAfterCloseMs).toBeLessThan(1_000);
    expect(FLEET_REDIS_OPTIONS.disconnectTimeout).toBe(50);
  });
});
