/**
 * Fault kind: a command writing outside where the user asked. `voxroute bench routing` ran the
 * benchmark in the package root, so the benchmark's default rewrote the repository's tracked
 * docs/routing-benchmark.svg on every run, and a relative `--svg FILE` landed in the package
 * root instead of the caller's folder. The runner here is a stand-in that prints its working
 * folder and arguments, in a temporary package root laid out as a checkout.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchCommand } from '../../src/cli/commands/bench.js';

const root = mkdtempSync(join(tmpdir(), 'voxroute-bench-root-'));
const caller = mkdtempSync(join(tmpdir(), 'voxroute-bench-caller-'));
mkdirSync(join(root, 'bench/routing'), { recursive: true });
mkdirSync(join(root, 'scripts'));
mkdirSync(join(root, 'node_modules/jiti'), { recursive: true });
writeFileSync(join(root, 'bench/routing/run.ts'), '');
writeFileSync(join(root, 'bench/overhead.ts'), '');
writeFileSync(
  join(root, 'scripts/run-ts.mjs'),
  'console.log(JSON.stringify({ cwd: process.cwd(), args: process.argv.slice(3) }));\n',
);
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(caller, { recursive: true, force: true });
});

/** Runs `voxroute bench ...argv` from the caller's folder; what the benchmark was started with. */
async function started(argv: string[]): Promise<{ code: number; cwd: string; args: string[] }> {
  let stdout = '';
  const code = await benchCommand(
    argv,
    {
      version: '0.0.0',
      cwd: caller,
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => {},
    },
    `${root}/`,
  );
  return { code, ...JSON.parse(stdout) };
}

describe('voxroute bench writes only where the caller asked', () => {
  it("routing without --svg: run in the caller's folder, with no plot (not the repository's doc plot)", async () => {
    expect(await started(['routing', '--requests', '50'])).toEqual({
      code: 0,
      cwd: caller,
      args: ['--requests', '50', '--svg', ''],
    });
  });

  it("routing with --svg FILE: the caller's relative FILE, as given", async () => {
    expect(await started(['routing', '--svg', 'out.svg'])).toEqual({
      code: 0,
      cwd: caller,
      args: ['--svg', 'out.svg'],
    });
    expect((await started(['routing', '--svg=plot.svg'])).args).toEqual(['--svg=plot.svg']);
  });

  it('overhead: its arguments unchanged, in the caller folder', async () => {
    expect(await started(['overhead', '--pairs', '10'])).toEqual({
      code: 0,
      cwd: caller,
      args: ['--pairs', '10'],
    });
  });
});
