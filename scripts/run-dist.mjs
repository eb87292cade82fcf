// Runs a TypeScript example against the BUILT package: `node scripts/run-dist.mjs FILE [args...]`.
// `voxroute` and `voxroute/testing` resolve to dist/ (run `npm run build` first); only the
// example file itself is transpiled (by jiti), the library is what users install.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const index = resolve(root, 'dist/index.js');
if (!existsSync(index)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}
process.env.JITI_ALIAS = JSON.stringify({
  'voxroute/testing': resolve(root, 'dist/testing/index.js'),
  voxroute: index,
});
process.env.VOXROUTE_FROM = 'dist';
await import('jiti/register');
const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/run-dist.mjs FILE [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...args];
await import(pathToFileURL(resolve(file)).href);
