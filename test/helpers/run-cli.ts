import { runCli } from '../../src/cli/run.js';

/** What one in-process CLI run gave: its exit code and everything it wrote to stdout and stderr. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process (`runCli`, version 9.8.7) on `argv` in the working folder `cwd` with
 * the environment `env` (nothing else of the process's), and collects what it writes.
 */
export async function runCliIn(
  cwd: string,
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    version: '9.8.7',
    cwd,
    env,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}
