import type { Clock } from '../internal/clock.js';
import { markRouterStall, setStallTolerantTimeout } from '../internal/stall.js';

/**
 * Races `promise` against a deadline of `ms` (0: none); `onTimeout` builds the rejection. When
 * the deadline's timer fires more than STALL_TOLERANCE_MS late (the event loop was blocked), the
 * promise gets one more timer turn, so that I/O already waiting is read first; if the deadline
 * still wins, its error is marked as the router's stall (src/internal/stall.ts) and the provider
 * is not charged for it.
 *
 * `standDown`, when given, receives a function that clears the deadline (the promise is then
 * awaited without one): for a wait whose answer turned out to be on its way (an error status
 * whose body is still being read, bounded by its own deadline).
 */
export function withDeadline<V>(
  promise: Promise<V>,
  ms: number,
  clock: Clock,
  onTimeout: () => Error,
  standDown?: (clear: () => void) => void,
): Promise<V> {
  if (!ms) return promise;
  return new Promise<V>((resolve, reject) => {
    const cancel = setStallTolerantTimeout(clock, ms, (stalled) => {
      const error = onTimeout();
      reject(stalled ? markRouterStall(error) : error);
    });
    standDown?.(cancel);
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
