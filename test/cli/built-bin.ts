import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, with a trailing slash. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI, as the package's `bin` points at it. */
export const bin = join(root, 'dist/cli/main.js');

function newest(dir: string): number {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Runs `npm run build` unless dist/ is newer than every file of src/ and package.json (CI
 * builds before the tests, so there it does nothing). Parallel test files take turns through a
 * lock directory in the temp folder, so only one of them builds.
 */
export function ensureBuilt(): void {
  // Test files run in parallel workers: one builds at a time (a second build's clean would
  // delete the first one's output), the others wait for it, then find dist/ fresh.
  // One lock per checkout (not in node_modules, which worktrees may share).
  const lock = join(
    tmpdir(),
    `voxroute-build-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.lock`,
  );
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a killed run is older than any build takes.
      if (lockAgeMs(lock) > 600_000) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 250);
    }
  }
  try {
    if (isFresh()) return;
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockAgeMs(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0; // released meanwhile
  }
}

function isFresh(): boolean {
  const built = [bin, join(root, 'dist/index.js'), join(root, 'dist/schema.json')];
  if (!built.every(existsSync)) return false;
  const oldest = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return oldest > Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
}

/** What a run of the built bin printed, and its exit code. */
export interface BinRun {
  status: number | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** Runs `node dist/cli/main.js ...args` (or another copy of it, `file`) in `cwd` and waits for it to exit. */
export function runBin(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; file?: string } = {},
): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.file ?? bin, ...args], {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({
        status,
        stdout: stdoutBytes.toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        stdoutBytes,
      });
    });
  });
}
