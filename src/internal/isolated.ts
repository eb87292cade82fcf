/**
 * Calls code the caller supplied for observation only (`router.on()` listeners, the `logger`)
 * so that it can never change a call's outcome or a provider's health: a throw, or the
 * rejection of a promise it returns, goes to `onError` (default: dropped) and nothing else.
 */
export function callIsolated<A extends unknown[]>(
  fn: (...args: A) => unknown,
  args: A,
  onError: (error: unknown) => void = ignore,
): void {
  try {
    const result = fn(...args);
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (result as { then?: unknown }).then === 'function'
    )
      (result as PromiseLike<unknown>).then(undefined, (error: unknown) => callIsolated(onError, [error]));
  } catch (error) {
    if (onError !== ignore) callIsolated(onError, [error]);
  }
}

function ignore(): void {}
