import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const root = resolve(import.meta.dirname, '../..');

describe('the WebAssembly resampler is loaded on first use', () => {
  it(
    'importing voxroute and transcoding at one rate load no resampler; the first resampling converter does',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'voxroute-resampler-'));
      try {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [
            '--import',
            './test/internal/fixtures/record-loads.mjs',
            'scripts/run-ts.mjs',
            'test/audio/fixtures/resampler-probe.mjs',
          ],
          {
            cwd: root,
            timeout: PROBE_HANG_MS,
            env: { ...process.env, VOXROUTE_LOAD_LOG: join(dir, 'loads.log') },
          },
        );
        expect(JSON.parse(stdout)).toEqual({
          afterImport: false,
          afterTranscoder: false,
          afterResampler: true,
          bytes: 3200,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    PROBE_TEST_MS,
  );
});
