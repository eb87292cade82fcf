import { fileURLToPath } from 'node:url';

/**
 * voxroute's package root, with a trailing slash: two folders up from this module, which is
 * right both for `src/cli/*.ts` and for the bundled `dist/cli/main.js` (as version.ts relies on).
 */
export function packageRoot(moduleUrl: string | URL = import.meta.url): string {
  return fileURLToPath(new URL('../../', moduleUrl));
}
