// Imports each given subpath of the installed voxroute package twice, as ESM (`import()`) and as
// CJS (`require()`), and checks that both builds expose the same, non-empty set of exports.
// For the root subpath it also checks that an error from the CJS copy is recognised by the ESM
// copy's `isInstance` (two copies in one process: the dual-package case `isInstance` exists for).
// Run by scripts/smoke-package.sh from a scratch project outside the repo; exits 1 on a failure.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// Resolve from the scratch project (the working directory), not from this file's folder.
const require = createRequire(join(process.cwd(), 'noop.js'));

for (const subpath of process.argv.slice(2)) {
  const esm = await import(subpath);
  const cjs = require(subpath);
  const esmNames = Object.keys(esm)
    .filter((k) => k !== 'default')
    .sort();
  const cjsNames = Object.keys(cjs).sort();
  assert.ok(esmNames.length > 0, `${subpath}: the ESM build exports nothing`);
  assert.deepEqual(cjsNames, esmNames, `${subpath}: the CJS and ESM builds export different names`);
  if (subpath === 'voxroute') {
    assert.equal(typeof esm.VoxrouteError, 'function', 'voxroute: VoxrouteError is not exported');
    assert.notEqual(esm.VoxrouteError, cjs.VoxrouteError, 'voxroute: ESM and CJS share one copy');
    const fromCjs = new cjs.VoxrouteError('from the CJS copy');
    assert.equal(fromCjs instanceof esm.VoxrouteError, false);
    assert.equal(esm.VoxrouteError.isInstance(fromCjs), true, 'isInstance fails across copies');
    assert.equal(cjs.VoxrouteError.isInstance(new esm.VoxrouteError('x')), true);
  }
  console.log(`ok: import() and require() of ${subpath} give the same ${esmNames.length} exports`);
}
