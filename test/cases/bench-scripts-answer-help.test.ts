/**
 * Every bench script that takes options answers `--help` with its usage (exit 0) and a bad
 * option with one line and the usage (exit 2), rather than parseArgs' stack trace
 * (`node scripts/run-ts.mjs bench/routing/run.ts --help` crashed with
 * ERR_PARSE_ARGS_UNKNOWN_OPTION, and so did every other script). They all parse their command
 * line through bench/args.ts; one script is run for real (the quickest to load: a full run of
 * each would take minutes on a shared core), and no script parses options another way.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

function run(args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: PROBE_HANG_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every .ts / .mjs file under bench/, relative to the repo root. */
function benchFiles(dir = join(ROOT, 'bench')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return benchFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

// The scripts run through jiti in a child process, in the worker's time: on a loaded 2-core
// machine longer than the default 20 s test timeout allows (see PROBE_HANG_MS).
describe('bench scripts and --help', { timeout: PROBE_TEST_MS }, () => {
  it('text-split.ts --help: usage on stdout (header, every option with its default), exit 0', () => {
    const r = run(['scripts/run-ts.mjs', 'bench/text-split.ts', '--help']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Usage: node scripts/run-ts.mjs bench/text-split.ts [options]');
    expect(lines[2]).toBe(
      'Cost of cutting tts() text into sentences and clauses, without network: whether it depends',
    );
    expect(lines.slice(lines.indexOf('Options:'))).toEqual([
      'Options:',
      '  --rounds <value> (default "5")',
      '  --help, -h  print this text',
      '',
    ]);
  });

  it('text-split.ts --bogus: one line naming the option, then the usage, on stderr; exit 2; no stack trace', () => {
    const r = run(['scripts/run-ts.mjs', 'bench/text-split.ts', '--bogus']);
    expect([r.status, r.stdout]).toEqual([2, '']);
    const [first, blank, usage] = r.stderr.split('\n');
    // parseArgs' own message (Node 22+ add a hint about `--` after it).
    expect(first).toMatch(/^Unknown option '--bogus'/);
    expect([blank, usage]).toEqual(['', 'Usage: node scripts/run-ts.mjs bench/text-split.ts [options]']);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('no bench script parses its options but through bench/args.ts (benchArgs)', () => {
    const files = benchFiles().filter((f) => f.endsWith('.ts') && f !== join('bench', 'args.ts'));
    const own = files.filter((f) => /\bparseArgs\s*\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(own).toEqual([]);
    const withOptions = files.filter((f) =>
      readFileSync(join(ROOT, f), 'utf8').includes('benchArgs(import.meta.url'),
    );
    expect(withOptions.length).toBeGreaterThanOrEqual(17);
  });

  it('jit-jobs.mjs (positional arguments) answers --help too, and a missing log with the usage and exit 2', () => {
    const help = run(['bench/jit-jobs.mjs', '--help']);
    expect([help.status, help.stdout, help.stderr]).toEqual([
      0,
      'usage: node bench/jit-jobs.mjs V8_LOG [BUCKET_SECONDS (default 2)] [VOXROUTE_FILE_PATTERN (default dist/index.js)] [MARKS_FILE]\n',
      '',
    ]);
    const none = run(['bench/jit-jobs.mjs']);
    expect([none.status, none.stdout, none.stderr]).toEqual([2, '', help.stdout]);
  });
});
