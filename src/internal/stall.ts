import type { Clock } from './clock.js';

/**
 * The router's own stalls: a deadline timer that fires more than {@link STALL_TOLERANCE_MS}
 * after it was due means the event loop was blocked (a long synchronous task, a GC pause), and
 * bytes may be waiting unread in the socket. Such a deadline gets one more event-loop turn (so
 * waiting I/O is read first), and if it still passes, its TimeoutError is marked as a router
 * stall: the attempt fails over as usual, but the provider is not charged (no failure in its
 * latency figures, nothing counted by its circuit breaker). See docs/routing.md, "Deadlines".
 */

/** How late a timer may fire, in ms, before the event loop counts as blocked. */
export const STALL_TOLERANCE_MS = 15;

const stalls = new WeakSet<object>();

/** Marks `error` as caused by the router's own stall; returns it. */
export function markRouterStall<E extends object>(error: E): E {
  stalls.add(error);
  return error;
}

/** True when `error` was marked by {@link markRouterStall}. */
export function isRouterStall(error: unknown): boolean {
  return typeof error === 'object' && error !== null && stalls.has(error);
}

/**
 * Sets a deadline timer of `ms` on `clock` that tolerates the router's own stalls, for timers
 * that end a stream by themselves (not through withDeadline): fired more than
 * {@link STALL_TOLERANCE_MS} late, it waits one more timer turn, so that I/O already waiting and
 * deadlines due earlier (the router's first-chunk deadline) go first, then calls
 * `onTimeout(true)`; fired on time, `onTimeout(false)`. The caller marks its error with
 * {@link markRouterStall} when `stalled`.
 *
 * @returns A function that cancels the timer (either turn).
 */
export function setStallTolerantTimeout(
  clock: Clock,
  ms: number,
  onTimeout: (stalled: boolean) => void,
): () => void {
  const due = clock.now() + ms;
  let stalled = false;
  const fire = () => {
    if (!stalled && clock.now() - due > STALL_TOLERANCE_MS) {
      stalled = true;
      handle = clock.setTimeout(fire, 0);
      return;
    }
    onTimeout(stalled);
  };
  let handle = clock.setTimeout(fire, ms);
  return () => clock.clearTimeout(handle);
}
