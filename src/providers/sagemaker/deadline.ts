import type { Clock } from '../../internal/clock.js';

/**
 * `promise`, or a rejection with `onTimeout()`'s error after `ms` milliseconds on `clock`
 * (0 or undefined: no deadline). `onTimeout` runs once, at the deadline, and may abort the
 * work behind `promise`; a later rejection of `promise` is then ignored (never unhandled).
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number | undefined,
  clock: Clock,
  onTimeout: () => Error,
): Promise<T> {
  if (!ms || ms <= 0) return promise;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const handle = clock.setTimeout(() => {
      if (settled) return;
      settled = true;
      promise.catch(() => {});
      reject(onTimeout());
    }, ms);
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(handle);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
