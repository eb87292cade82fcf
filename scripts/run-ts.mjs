// Runs a TypeScript file of this repo from source: `node scripts/run-ts.mjs FILE [args...]`.
// The file is transpiled by jiti, and `voxroute` and its subpaths resolve to src/ (as the
// tsconfig paths do for the type-checker), so examples import the package by its public name
// without a build.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
process.env.JITI_ALIAS = JSON.stringify({
  'voxroute/ai-sdk': resolve(root, 'src/ai-sdk/index.ts'),
  'voxroute/livekit': resolve(root, 'src/livekit/index.ts'),
  'voxroute/testing': resolve(root, 'src/testing/index.ts'),
  voxroute: resolve(root, 'src/index.ts'),
});
await import('jiti/register');
const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/run-ts.mjs FILE [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...args];
await import(pathToFileURL(resolve(file)).href);
