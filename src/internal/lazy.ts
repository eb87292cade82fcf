/**
 * Wraps `build` so that it runs on the first call only; later calls return the same value
 * (one boolean check). Used for whatever is costly to create and not needed at import time:
 * zod schemas (the config's and the providers' wire schemas) and the packages loaded on first
 * use ({@link ./require-package.ts}), so that `import 'voxroute'` stays fast. If `build`
 * throws, nothing is cached and the next call runs it again.
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/**
 * Wraps `load` (typically a dynamic `import()`) so that it starts on the first call only and
 * every call gets the same promise; a rejection is forgotten, so the next call loads again.
 * (Whether that loads anything is Node's choice: Node 24 and later import a module again after
 * a failed `import()`; Node 20 and 22 answer with the first failure for the life of the process.)
 * Calling it without awaiting starts the load early (a preload).
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * What a message about package code that could not be loaded tells the user, in parentheses:
 * a damaged install, or a passing failure (EMFILE: too many open files) that Node 20 and 22 do
 * not retry (they keep a failed `import()` for the life of the process), hence "restart".
 */
export const LOAD_FAILED_HINT =
  '(is the voxroute install complete? After a passing failure such as EMFILE, restart the process: ' +
  'Node before 24 does not load a failed module again)';
