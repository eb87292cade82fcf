import { lazyImport } from '../internal/lazy.js';

/**
 * Loads deferred-code.ts (the adapters, transports, fleet-shared health and the resampler's
 * worker thread) once per process: started by the first `createRouter()`, every later call gets
 * the same promise; a failed load (a damaged install) is forgotten, so the next call asks again (Node 24 loads it
 * again; Node 20 and 22 answer with the first failure: see LOAD_FAILED_HINT).
 * The only dynamic `import()` of the package's own code on the router's path: the ESM build
 * splits off one file for it, the CommonJS build keeps it in index.cjs.
 */
export const loadDeferredCode: () => Promise<typeof import('./deferred-code.js')> = lazyImport(
  () => import('./deferred-code.js'),
);
