import type { Clock } from '../internal/clock.js';
import { markRouterStall, setStallTolerantTimeout } from '../internal/stall.js';

/**
 * Races `promise` against a deadline of `ms` (0: none); `onTimeout` builds the rejection. When
 * the deadline's timer fires more than STALL_TOLERANCE_MS late (the event loop was blocked), the
 * promise gets one more timer turn, so that I/O already waiting is read first; if the deadline
 * still wins, its error is marked as the router's stall (src/internal/stall.ts) and the provider
 * is not charged for it.
 */
export function withDeadline<V>(
  promise: Promise<V>,
  ms: number,
  clock: Clock,
  onTimeout: () => Error,
): Promise<V> {
  if (!ms) return promise;
  return new Promise<V>((resolve, reject) => {
    const cancel = setStallTolerantTimeout(clock, ms, (stalled) => {
      const error = onTimeout();
      reject(stalled ? markRouterStall(error) : error);
    });
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}
