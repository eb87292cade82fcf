import type { z } from 'zod';
import { lazy } from './lazy.js';
import { requirePackage } from './require-package.js';

/**
 * zod's `z` namespace, loaded synchronously on the first call (zod 4's CommonJS build, through
 * {@link requirePackage}) and the same object afterwards. Every module of voxroute that builds
 * or uses a zod schema gets zod here, inside a lazily built schema, instead of with
 * `import { z } from 'zod'`: loading zod takes about 100 ms, two thirds of what importing
 * voxroute used to take, so it is paid by the first `createRouter()`, `parseConfig()`,
 * `loadConfig()`, `configJsonSchema()` or wire-message parse instead (docs/decisions.md "zod is
 * loaded on first use"). Types still come from `import type { z } from 'zod'` (erased).
 * zod keeps its registry of descriptions on `globalThis`, so schemas built here and a copy of
 * zod loaded as ESM elsewhere share metadata.
 *
 * @throws Whatever `require('zod')` throws when zod is not installed.
 */
export const zod: () => typeof z = lazy(() => requirePackage<{ z: typeof z }>('zod').z);

/**
 * A schema built on its first call with zod's `z` (loaded then, see {@link zod}) and the same
 * object afterwards: `export const xSchema = lazySchema((z) => z.looseObject({ ... }))`, then
 * `xSchema()` where a message is parsed. One cached check per call after the first.
 */
export function lazySchema<T>(build: (zodNamespace: typeof z) => T): () => T {
  return lazy(() => build(zod()));
}
