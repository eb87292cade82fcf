/**
 * Entry point of the `voxroute` command (package.json `bin`, built to `dist/cli/main.js` with a
 * `#!/usr/bin/env node` banner). It only wires the process to {@link runCli}; keep imports here
 * light, since every invocation pays for them (commands load voxroute on demand).
 */
import process from 'node:process';
import { runCli } from './run.js';
import { readPackageVersion } from './version.js';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  version: readPackageVersion(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutBytes: (data) =>
    new Promise<void>((resolve, reject) =>
      process.stdout.write(data, (error) => (error ? reject(error) : resolve())),
    ),
  stdoutIsTTY: process.stdout.isTTY === true,
  signal: stop.signal,
});
