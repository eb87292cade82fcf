import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE } from '../exit-codes.js';
import { packageRoot } from '../package-root.js';

/** The benchmarks `voxroute bench` runs, by name: their script in a repository checkout. */
export const BENCHMARKS = { routing: 'bench/routing/run.ts', overhead: 'bench/overhead.ts' } as const;

/**
 * `voxroute bench routing|overhead [ARGS...]`: runs a benchmark of the voxroute repository
 * (`bench/routing/run.ts`: routing quality against an oracle, writing an SVG plot with
 * `--svg FILE`; `bench/overhead.ts`: the router's overhead on time to first chunk and CPU),
 * passing ARGS on, its output streamed through. It runs in the caller's working folder, so a
 * relative `--svg FILE` or `--json FILE` is written there; without `--svg`, `routing` writes no
 * plot (run directly in a checkout, its default rewrites docs/routing-benchmark.svg). The benchmarks are TypeScript sources that
 * the npm package does not ship, so outside a checkout (with `npm ci` done) the command says
 * so and exits 5.
 *
 * @param root The package root (where package.json is), with a trailing slash. Default: packageRoot().
 */
export async function benchCommand(
  argv: readonly string[],
  ctx: CliContext,
  root = packageRoot(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== 'routing' && name !== 'overhead') {
    throw new CliError(
      `bench: name a benchmark: voxroute bench routing|overhead [ARGS...]${name ? ` (not '${name}')` : ''}`,
      EXIT_USAGE,
    );
  }
  const script = `${root}${BENCHMARKS[name]}`;
  const runner = `${root}scripts/run-ts.mjs`;
  if (!existsSync(script) || !existsSync(runner) || !existsSync(`${root}node_modules/jiti`)) {
    throw new CliError(
      `bench: the benchmarks are TypeScript sources of the voxroute repository, not shipped in the npm package; run them from a checkout after 'npm ci': npx voxroute bench ${name}`,
      EXIT_UNAVAILABLE,
    );
  }
  // The routing benchmark's own default writes the repository's docs/routing-benchmark.svg;
  // through the CLI the plot is written only where --svg says (docs/cli.md).
  const args =
    name === 'routing' && !rest.some((a) => a === '--svg' || a.startsWith('--svg='))
      ? [...rest, '--svg', '']
      : rest;
  ctx.stderr(`voxroute: running ${BENCHMARKS[name]} ${rest.join(' ')}\n`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [runner, script, ...args], {
      // The caller's folder, so that relative paths in ARGS (--svg FILE, --json FILE) are theirs.
      cwd: ctx.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => ctx.stdout(d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => ctx.stderr(d.toString('utf8')));
    const stop = () => child.kill('SIGTERM');
    ctx.signal?.addEventListener('abort', stop, { once: true });
    child.on('close', (status) => {
      ctx.signal?.removeEventListener('abort', stop);
      resolve(status ?? 1);
    });
  });
  return code === 0 ? EXIT_OK : EXIT_FAILURE;
}
