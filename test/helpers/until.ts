/**
 * Resolves once `predicate()` holds, checking again after each turn of the event loop (a 1 ms
 * timer: loopback sockets and timers' consequences run in between). Fails with "timed out
 * waiting for: <what>" after `limitMs` of real time (default 15 s): a wait for a loopback
 * event is not a measurement, so the limit is far above what a loaded 2-core machine takes;
 * it only names what never came before the test's own timeout (20 s) would.
 */
export async function until(predicate: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > limitMs) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
