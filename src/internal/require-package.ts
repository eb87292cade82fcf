import { createRequire } from 'node:module';

/**
 * A `require` resolving from this module's own location, so packages are found in voxroute's
 * node_modules whichever build runs: dist/index.js (ESM), dist/index.cjs (tsup shims
 * `import.meta.url` there from the module's own `__filename`), or src/ under vitest or jiti.
 * Only `import.meta.url`: a global `__filename` is not this module's (under `node -e` it is
 * `'[eval]'`, which `createRequire` rejects with ERR_INVALID_ARG_VALUE). Created on first use.
 */
let requireHere: NodeJS.Require | undefined;

/**
 * Loads a package (its CommonJS build, through Node's `require`) synchronously, on the call
 * rather than at import: for dependencies that are slow to load and not needed by
 * `import 'voxroute'` itself (zod, alawmulaw, eventsource-parser), where the caller is
 * synchronous and so cannot `await import()`. Node caches the module: later calls cost a
 * cache lookup, but callers keep the result (see {@link ./lazy.ts}) anyway.
 *
 * @param name A bare package specifier, e.g. `'zod'`.
 * @returns The package's CommonJS exports, typed by the caller.
 * @throws Whatever `require` throws (e.g. `MODULE_NOT_FOUND` when the package is missing).
 */
export function requirePackage<T>(name: string): T {
  requireHere ??= createRequire(import.meta.url);
  return requireHere(name) as T;
}

/**
 * The file path of a package's entry (or subpath export), resolved as {@link requirePackage}
 * resolves it: from voxroute's own location, through the package's `exports` map. Used to hand
 * the Speex module's path to the resampler's worker thread.
 * @throws Whatever `require.resolve` throws (e.g. `MODULE_NOT_FOUND`).
 */
export function resolvePackage(name: string): string {
  requireHere ??= createRequire(import.meta.url);
  return requireHere.resolve(name);
}
