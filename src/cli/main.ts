/**
 * Entry point of the `voxroute` command (package.json `bin`, built to `dist/cli/main.js` with a
 * `#!/usr/bin/env node` banner). It only wires the process to {@link runCli}; keep imports here
 * light, since every invocation pays for them.
 */
import process from 'node:process';
import { runCli } from './run.js';
import { readPackageVersion } from './version.js';

process.exitCode = runCli(process.argv.slice(2), {
  version: readPackageVersion(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
