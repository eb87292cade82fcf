import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPackageVersion } from '../../src/cli/version.js';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Runs src/cli/main.ts from source in a child process, the way `npm run` users would via jiti. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'jiti/register', 'src/cli/main.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    // A hang guard, not a speed check: jiti transpiles the CLI's sources, seconds of CPU.
    timeout: PROBE_HANG_MS,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each test waits for a child process that loads the sources through jiti: on a loaded 2-core
// machine that takes longer than the default 20 s test timeout allows (see PROBE_HANG_MS).
describe('voxroute CLI process', { timeout: PROBE_TEST_MS }, () => {
  it("prints package.json's version for --version and exits 0", () => {
    expect(cli('--version')).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('prints the help with the version on its first line for no arguments and exits 0', () => {
    const r = cli();
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe(
      `voxroute ${pkg.version}: route streaming speech-to-text, chat and text-to-speech across providers`,
    );
    expect(r.stdout.match(/^ {2}(\w+) {2,}/gm)?.map((s) => s.trim())).toEqual([
      'doctor',
      'tts',
      'stt',
      'chat',
      'mock',
      'bench',
      'demo',
    ]);
  });

  it('exits 2 with a message on stderr for an unknown command', () => {
    expect(cli('frobnicate')).toEqual({
      status: 2,
      stdout: '',
      stderr: "voxroute: unknown command 'frobnicate'. Run 'voxroute --help' to list the commands.\n",
    });
  });
});

describe('readPackageVersion', () => {
  it('reads ../../package.json relative to the given module URL', () => {
    expect(readPackageVersion(new URL('../../src/cli/main.ts', import.meta.url))).toBe(pkg.version);
  });

  it('throws naming the file when no package.json is there', () => {
    expect(() => readPackageVersion(new URL('file:///nonexistent-dir/a/b/main.js'))).toThrow(
      /ENOENT.*nonexistent-dir\/package\.json/,
    );
  });
});
