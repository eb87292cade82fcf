import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { connectFleet } from '../../src/fleet/redis-client.js';
import { deferred } from '../helpers/deferred.js';
import { PROBE_TEST_MS } from '../helpers/import-probe.js';
import { chatServer } from './helpers.js';
import { describeWithRedis } from './with-redis.js';

const root = resolve(import.meta.dirname, '../..');
const PROCESSES = 4;
const CALLS = 8;

interface Child {
  proc: ChildProcess;
  key: string;
  openings: { at: number; reason: string }[];
  ready: Promise<unknown>;
  done: Promise<{ ok: number; failed: number }>;
}

function startChild(
  redisUrl: string,
  downUrl: string,
  upUrl: string,
  key: string,
  onOpened: () => void = () => {},
): Child {
  const proc = spawn(
    process.execPath,
    [
      'scripts/run-ts.mjs',
      'test/fleet/fixtures/fleet-router.ts',
      redisUrl,
      downUrl,
      upUrl,
      key,
      String(CALLS),
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const openings: Child['openings'] = [];
  let ready!: (v: unknown) => void;
  let done!: (v: { ok: number; failed: number }) => void;
  const child: Child = {
    proc,
    key,
    openings,
    ready: new Promise((r) => {
      ready = r;
    }),
    done: new Promise((r) => {
      done = r;
    }),
  };
  proc.on(
    'message',
    (m: {
      ready?: unknown;
      opened?: { at: number; reason: string };
      done?: { ok: number; failed: number };
    }) => {
      if (m.ready !== undefined) ready(m.ready);
      if (m.opened) {
        openings.push(m.opened);
        onOpened();
      }
      if (m.done) done(m.done);
    },
  );
  return child;
}

describeWithRedis('fleet-shared health: 4 router processes on a real Redis', (redis) => {
  it(
    'after the first process opens its breaker, each other process sends at most one more request to the provider that is down; nothing secret is stored',
    async () => {
      // Process 0 fails fast; the others' 503s wait until that process's breaker was opened (by
      // the fleet, as process 0 opened its own), so process 0 opens first whatever the machine's
      // load. (They waited 200 ms: process 0's five calls and its message could take longer.) Other
      // requests (the warmup's OPTIONS) are answered at once.
      const keys = Array.from({ length: PROCESSES }, (_, i) => `sk-fleet-secret-${i}`);
      const opened = new Map(keys.map((key) => [key, deferred()]));
      const down = await chatServer('down', (key) => (key === keys[0] ? 0 : (opened.get(key)?.promise ?? 0)));
      const up = await chatServer('up');
      const probe = await connectFleet(redis.url);
      const messages: string[] = [];
      await new Promise((r) => probe.subscriber.once('ready', r));
      await probe.subscriber.subscribe('test:health');
      probe.subscriber.on('message', (_channel: string, text: string) => messages.push(text));
      const children = keys.map((key) =>
        startChild(redis.url, down.url, up.url, key, () => opened.get(key)!.resolve()),
      );
      try {
        expect(await Promise.all(children.map((c) => c.ready))).toEqual(['ready', 'ready', 'ready', 'ready']);
        for (const c of children) c.proc.send('go');
        const results = await Promise.all(children.map((c) => c.done));
        // Every call succeeded (through the provider that is up).
        expect(results).toEqual(children.map(() => ({ ok: CALLS, failed: 0 })));

        const first = children[0]!;
        expect(first.openings[0]?.reason).toBe('consecutive-failures');
        const firstOpenAt = first.openings[0]!.at;
        expect(down.seen.filter((r) => r.key === keys[0]).length).toBe(5);
        for (const c of children.slice(1)) {
          const after = down.seen.filter((r) => r.key === c.key && r.at > firstOpenAt).length;
          expect(after).toBeLessThanOrEqual(1);
          // Its breaker was opened by the fleet, before its own threshold of 5 failures.
          expect(c.openings[0]?.reason).toBe('fleet');
          expect(down.seen.filter((r) => r.key === c.key).length).toBeLessThan(5);
        }
        // Nothing secret reached the store: no API key, no provider URL, no Redis URL.
        const stored: string[] = [...messages];
        for (const key of await probe.commands.keys('*')) {
          const type = await probe.commands.type(key);
          stored.push(key);
          if (type === 'hash') stored.push(...Object.entries(await probe.commands.hgetall(key)).flat());
          else if (type === 'string') stored.push((await probe.commands.get(key)) ?? '');
        }
        expect(messages.length).toBeGreaterThan(0);
        const all = stored.join('\n');
        expect(all).toContain('"p":"down"');
        for (const secret of [...keys, down.url, up.url, redis.url, String(redis.port)])
          expect(all).not.toContain(secret);
      } finally {
        for (const c of children) if (c.proc.exitCode === null) c.proc.kill();
        probe.commands.disconnect();
        probe.subscriber.disconnect();
        for (const gate of opened.values()) gate.resolve();
        await down.close();
        await up.close();
      }
      // Four children that load the sources through jiti (see PROBE_HANG_MS).
    },
    PROBE_TEST_MS,
  );
});
