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
