// `npm pack` and installs from git run this before packing: the package's entry points are in
// dist/, which a fresh clone does not have, so build it then. When dist/ is there (CI builds
// once, then packs several times) it is packed as it is; `npm publish` builds afresh first
// (prepublishOnly), so a stale dist/ is never published.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = ['dist/index.js', 'dist/testing/index.js', 'dist/cli/main.js', 'dist/schema.json'].every((f) =>
  existsSync(f),
);
if (!built) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', 'build'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  process.exit(run.status ?? 1);
}
