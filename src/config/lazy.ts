/**
 * Wraps `build` so it runs on the first call only and later calls return the same value.
 * The config schemas are built this way, on first use instead of at import, so that
 * importing voxroute stays fast (building them costs several ms).
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
