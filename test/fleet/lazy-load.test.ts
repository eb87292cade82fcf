import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const root = resolve(import.meta.dirname, '../..');

describe('fleet-shared health: ioredis is an optional peer loaded on first use', () => {
  it(
    'importing voxroute and a router without `health` load no ioredis; a router with `health` loads it',
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['scripts/run-ts.mjs', 'test/fleet/fixtures/ioredis-probe.ts'],
        { cwd: root, timeout: PROBE_HANG_MS },
      );
      expect(JSON.parse(stdout)).toEqual({
        afterImport: false,
        afterPlainRouter: false,
        afterFleetRouter: true,
      });
    },
    PROBE_TEST_MS,
  );
});
