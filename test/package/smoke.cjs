// Requires each given subpath of the installed voxroute package from a plain CommonJS module
// (no ESM loader in play), as a CJS consumer on Node >= 20.19 would. Exits 1 on a failure.
const assert = require('node:assert/strict');
const { join } = require('node:path');
const { createRequire } = require('node:module');

// Resolve from the scratch project (the working directory), not from this file's folder.
const requireFromCwd = createRequire(join(process.cwd(), 'noop.js'));

for (const subpath of process.argv.slice(2)) {
  const names = Object.keys(requireFromCwd(subpath));
  assert.ok(names.length > 0, `${subpath}: the CJS build exports nothing`);
  console.log(`ok: require() of ${subpath} from a CommonJS module gives ${names.length} exports`);
}
