/**
 * What the import-path tests share: running a probe script in a fresh Node process (through
 * scripts/run-ts.mjs, so it can import the TypeScript sources) and listing the source files to
 * scan for static imports.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, '../..');

const run = promisify(execFile);

/**
 * How long a probe process may run before it counts as hung, ms. Not a speed check: a probe
 * transpiles and imports much of src/ from source, seconds of CPU; on the 2-core machine shared
 * with a full parallel test run (load average 15 to 20) one took over 30 s of wall time, and one
 * that loads the AWS SDK about 115 s. Speed targets live in bench/.
 */
export const PROBE_HANG_MS = 150_000;

/** The timeout of a test that runs one probe: the hang guard and some room for the rest. */
export const PROBE_TEST_MS = PROBE_HANG_MS + 30_000;

/**
 * Runs `fixture` (a path from the root) in a fresh Node process and returns what it printed on
 * stdout, parsed as JSON. With `recordLoads`, the process runs under
 * test/internal/fixtures/record-loads.mjs, which logs each module loaded to a file in a temporary
 * directory (removed afterwards) named by VOXROUTE_LOAD_LOG. Rejects when the process fails or
 * runs longer than {@link PROBE_HANG_MS}.
 */
export async function runProbe<T>(fixture: string, options: { recordLoads: boolean }): Promise<T> {
  if (!options.recordLoads) {
    const { stdout } = await run(process.execPath, ['scripts/run-ts.mjs', fixture], {
      cwd: ROOT,
      timeout: PROBE_HANG_MS,
    });
    return JSON.parse(stdout) as T;
  }
  const dir = mkdtempSync(join(tmpdir(), 'voxroute-loads-'));
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', './test/internal/fixtures/record-loads.mjs', 'scripts/run-ts.mjs', fixture],
      {
        cwd: ROOT,
        timeout: PROBE_HANG_MS,
        env: { ...process.env, VOXROUTE_LOAD_LOG: join(dir, 'loads.log') },
      },
    );
    return JSON.parse(stdout) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every .ts file below `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
