/**
 * Import-time benchmark (DESIGN.md "Performance targets": `import 'voxroute'` under 50 ms).
 *
 * Run after `npm run build`: `node scripts/run-ts.mjs bench/import-time.ts [--runs N] [--json]
 * [--against DIR]`.
 *
 * Measures the BUILT package (dist/), as users get it: each sample is a fresh
 * `node --input-type=module -e` process that takes performance.now() just before and just after
 * `await import('voxroute')` (the package's own name, resolved through its `exports` to
 * dist/index.js), so process start-up is not counted, only loading and evaluating the module
 * graph. To tell what dominates, the same is measured for each package that dist/ imports
 * statically, for voxroute with those packages already loaded (its own code alone), for the
 * packages it loads lazily (with `import()`, or synchronously on first use with the internal
 * `requirePackage('name')`, e.g. zod), and for `require('voxroute')` (dist/index.cjs). The cost
 * moved to first use is timed too: the first `createRouter()` after the import (which loads zod
 * and builds the config schema), and the module of the router's background code (the provider
 * adapters, the transports, fleet-shared health, the resampler thread), which `createRouter()` loads
 * in the background. Targets are measured round-robin, N rounds (default 15), so
 * that a noisy moment hits all of them alike.
 *
 * `--against DIR`: also measures another build in the same rounds, alternated with this one:
 * `import('voxroute')`, `require('voxroute')` and the first `createRouter()` from DIR, a
 * package root with its own dist/ and node_modules (e.g. a worktree of another commit after
 * `npm run build`), each sample run there so that `voxroute` resolves to DIR's dist/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const args = benchArgs(import.meta.url, {
  runs: { type: 'string', default: '15' },
  json: { type: 'boolean', default: false },
  against: { type: 'string' },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`--runs must be a positive integer, got ${args.runs}`);
/** Measuring stops after this long, whatever the number of rounds (ms). */
const BUDGET_MS = 120_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, 'dist');

/** What one sample does: `pre` modules loaded untimed, then `spec` timed. */
interface Target {
  label: string;
  spec: string;
  pre?: string[];
  /** Load with require() from a CommonJS `-e` instead of import(). */
  cjs?: boolean;
  /**
   * JavaScript run after the (untimed) import of `spec`, with its exports as `m`: then only this
   * is timed, e.g. the first `createRouter()`.
   */
  after?: string;
  /** Where the sample runs (so that `voxroute` resolves to that package's dist/); default this repo. */
  cwd?: string;
}

/** A small valid config: one OpenAI chat provider (no connection is opened by createRouter). */
const FIRST_ROUTER = `m.createRouter({
  providers: { a: { kind: 'openai', apiKey: 'k', chat: { models: { fast: 'gpt-4o-mini' } } } },
  routes: { chat: { providers: ['a'] } },
})`;

const FIRST_ROUTER_LABEL = 'first createRouter() after the import';

/** Bare package names that the built files import statically (followed through dist/ chunks). */
function staticImports(entry: string): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] as string;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
    for (const m of code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] as string;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return [...packages].sort();
}

/**
 * Bare package names that the built files load lazily: with a dynamic `import()`, or with
 * voxroute's `requirePackage('name')` (src/internal/require-package.ts, a synchronous require
 * on first use). The files are the entry, its static chunks, and the package's own files it
 * loads with `import()` (the router's background code) with theirs.
 */
function dynamicImports(entry: string): string[] {
  const packages = new Set<string>();
  const files = [entry, ...staticChunkFiles(entry)];
  const lazyLoad = /\b(?:import|requirePackage\d*)\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let i = 0; i < files.length; i++) {
    const file = files[i] as string;
    for (const m of readFileSync(file, 'utf8').matchAll(lazyLoad)) {
      const spec = m[1] as string;
      if (!spec.startsWith('.')) packages.add(spec);
      else if (spec.endsWith('.js')) {
        const own = resolve(dirname(file), spec);
        for (const f of [own, ...staticChunkFiles(own)]) if (!files.includes(f)) files.push(f);
      }
    }
  }
  return [...packages].sort();
}

function staticChunkFiles(entry: string): string[] {
  const code = readFileSync(entry, 'utf8');
  return [...code.matchAll(/from\s*['"](\.[^'"]+)['"]/g)].map((m) => resolve(dirname(entry), m[1] as string));
}

/**
 * The module of the router's background code in the ESM build (dist/deferred-code-<hash>.js:
 * the provider adapters, the transports, fleet-shared health, the resampler thread), timed after the
 * entry's import: the compile that `createRouter()` starts in the background (and `warmup()`
 * waits for). None when the build has no such file.
 */
function backgroundCodeTargets(): Target[] {
  const file = readdirSync(dist).find((f) => /^deferred-code-[\w-]+\.js$/.test(f));
  if (file === undefined) return [];
  const url = pathToFileURL(resolve(dist, file)).href;
  return [
    {
      label: 'background code (createRouter() loads it)',
      spec: 'voxroute',
      after: `await import(${JSON.stringify(url)})`,
    },
  ];
}

/** The label suffix of the targets of `--against`. */
const AGAINST = '[against]';

/**
 * With `--against DIR`: the import, require and first createRouter() targets run in DIR, whose
 * `voxroute` is its own dist/. None without the option.
 */
function againstTargets(): Target[] {
  if (args.against === undefined) return [];
  const dir = resolve(args.against);
  if (!existsSync(resolve(dir, 'dist/index.js')) || !existsSync(resolve(dir, 'package.json')))
    throw new Error(
      `--against ${args.against}: no package.json and dist/index.js there (run its build first)`,
    );
  return [
    { label: `import('voxroute') ${AGAINST}`, spec: 'voxroute', cwd: dir },
    { label: `require('voxroute') ${AGAINST}`, spec: 'voxroute', cjs: true, cwd: dir },
    { label: `${FIRST_ROUTER_LABEL} ${AGAINST}`, spec: 'voxroute', after: FIRST_ROUTER, cwd: dir },
  ];
}

/** One sample: ms spent in the timed import/require, from a fresh process. */
function sample(target: Target): number {
  const pre = JSON.stringify(target.pre ?? []);
  const spec = JSON.stringify(target.spec);
  const code = target.after
    ? `const m = await import(${spec});
       const t0 = performance.now(); ${target.after}; const t = performance.now() - t0;
       process.stdout.write(String(t)); process.exit(0);`
    : target.cjs
      ? `for (const p of ${pre}) require(p);
       const t0 = performance.now(); require(${spec}); const t = performance.now() - t0;
       process.stdout.write(String(t));`
      : `for (const p of ${pre}) await import(p);
       const t0 = performance.now(); await import(${spec}); const t = performance.now() - t0;
       process.stdout.write(String(t));`;
  const child = spawnSync(
    process.execPath,
    [...(target.cjs ? ['--input-type=commonjs'] : ['--input-type=module']), '-e', code],
    { cwd: target.cwd ?? root, encoding: 'utf8', timeout: 30_000 },
  );
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms)) {
    throw new Error(`${target.label}: ${child.stderr || `exit ${child.status}`}`);
  }
  return ms;
}

function main(): void {
  const entry = resolve(dist, 'index.js');
  if (!existsSync(entry) || !existsSync(resolve(dist, 'index.cjs'))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const statics = staticImports(entry);
  const eager = statics.filter((s) => !isBuiltin(s));
  // Node's own modules load fast, except a few (http2 takes tens of ms): they are timed too.
  const builtins = statics.filter((s) => isBuiltin(s));
  const lazy = dynamicImports(entry).filter((s) => !isBuiltin(s) && !eager.includes(s));
  const against = againstTargets();
  const targets: Target[] = [
    { label: "import('voxroute')", spec: 'voxroute' },
    ...against.slice(0, 1),
    { label: "require('voxroute')", spec: 'voxroute', cjs: true },
    ...against.slice(1, 2),
    { label: 'voxroute, its static imports preloaded', spec: 'voxroute', pre: statics },
    { label: FIRST_ROUTER_LABEL, spec: 'voxroute', after: FIRST_ROUTER },
    ...against.slice(2),
    // Moved off the import: createRouter() loads the adapters', transports' and fleet's module in the background.
    ...backgroundCodeTargets(),
    ...eager.map((s) => ({ label: `${s} alone (static dep)`, spec: s })),
    ...builtins.map((s) => ({ label: `node:${s.replace(/^node:/, '')} alone (static)`, spec: s })),
    { label: 'zod/mini alone (for comparison)', spec: 'zod/mini' },
    ...lazy.map((s) => ({ label: `${s} alone (loaded lazily)`, spec: s })),
    { label: 'an empty module (floor)', spec: 'data:text/javascript,export default 1' },
  ];
  const times = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  const started = performance.now();
  let rounds = 0;
  for (; rounds < RUNS && performance.now() - started < BUDGET_MS; rounds++) {
    for (const target of targets) times.get(target.label)?.push(sample(target));
  }

  const voxroute = summarize(times.get(targets[0]!.label) ?? []);
  console.log(
    `import time of the built voxroute: node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${rounds} fresh processes per line`,
  );
  console.log(`static package imports of dist/index.js: ${eager.join(', ') || 'none'}`);
  console.log(`static Node imports: ${builtins.join(', ') || 'none'}`);
  console.log(`packages loaded lazily (import() or requirePackage()): ${lazy.join(', ') || 'none'}\n`);
  console.log(`${'ms'.padEnd(56)}   median      min      p90   share of voxroute median`);
  const json: Record<string, unknown> = {};
  for (const target of targets) {
    const s = summarize(times.get(target.label) ?? []);
    json[target.label] = s;
    const share = `${((100 * s.median) / voxroute.median).toFixed(0)}%`.padStart(8);
    console.log(`  ${target.label.padEnd(54)}${fmt(s.median, 1)}${fmt(s.min, 1)}${fmt(s.p90, 1)} ${share}`);
  }
  const met = voxroute.median < 50;
  console.log(
    `\nP7 import('voxroute') median ${voxroute.median.toFixed(1)} ms: target <= 50 ms ${met ? 'met' : 'NOT met'}`,
  );
  const first = summarize(times.get(FIRST_ROUTER_LABEL) ?? []);
  console.log(
    `P7 first createRouter() in a fresh process, median ${first.median.toFixed(1)} ms: target <= 30 ms ${first.median <= 30 ? 'met' : 'NOT met'}`,
  );
  if (against.length > 0) {
    const [imported, required, router] = against.map((t) => summarize(times.get(t.label) ?? []).median);
    const here = (label: string) => summarize(times.get(label) ?? []).median;
    console.log(`against ${args.against} (${AGAINST} above), alternated in the same rounds, medians:`);
    for (const [what, mine, theirs] of [
      ["import('voxroute')", voxroute.median, imported],
      ["require('voxroute')", here("require('voxroute')"), required],
      ['first createRouter()', first.median, router],
    ] as const)
      console.log(
        `  ${what.padEnd(22)} this build ${(mine ?? 0).toFixed(1)} ms, against ${(theirs ?? 0).toFixed(1)} ms (${((mine ?? 0) / (theirs ?? 1)).toFixed(2)}x)`,
      );
  }
  if (args.json)
    console.log(JSON.stringify({ node: process.version, cpus: cpus().length, rounds, results: json }));
}

main();
