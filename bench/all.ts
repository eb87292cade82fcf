/**
 * Every benchmark with targets, in sequence, then each target with met / not met in one list
 * (`npm run bench`). Runs bench/overhead.ts, bench/resampler.ts, bench/streams.ts,
 * bench/stt-input.ts, bench/load.ts, bench/text-split.ts, and
 * bench/import-time.ts and bench/first-call.ts when dist/ is built (`npm run build`; they time
 * the built package).
 * The routing suite (bench/routing/suite.ts, ~15 min) is not included: `npm run bench:routing`.
 * Each script runs in a process of its own, one after the other, and prints its full output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runTs = resolve(root, 'scripts/run-ts.mjs');
const scripts: [string, string[]][] = [
  ['bench/overhead.ts', []],
  ['bench/resampler.ts', []],
  ['bench/streams.ts', []],
  ['bench/stt-input.ts', []],
  ['bench/load.ts', []],
  ['bench/text-split.ts', []],
];
const built = existsSync(resolve(root, 'dist/index.js'));
if (built) scripts.push(['bench/import-time.ts', []], ['bench/first-call.ts', []]);

/** A line that states a target's outcome. */
const VERDICT = /\b(?:NOT met|met|not met)\b/;
const summary: string[] = [];
let failed = false;
for (const [script, args] of scripts) {
  console.log(`\n=== ${script} ===`);
  const run = spawnSync(process.execPath, [runTs, script, ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout ?? '');
  if (run.status !== 0) {
    failed = true;
    summary.push(`${script}: exited with ${run.status ?? run.signal}`);
  }
  for (const line of (run.stdout ?? '').split('\n')) {
    if (VERDICT.test(line) && !line.trimStart().startsWith('|')) summary.push(`${script}: ${line.trim()}`);
  }
}
if (!built)
  summary.push(
    'bench/import-time.ts, bench/first-call.ts: skipped, dist/ is not built (npm run build, then npm run bench:import)',
  );
console.log('\n=== Targets ===');
for (const line of summary) console.log(line);
process.exit(failed ? 1 : 0);
