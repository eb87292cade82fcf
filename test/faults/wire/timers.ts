/**
 * The timers (setTimeout, setInterval) created while a cell runs, by any code in the process
 * (voxroute, undici, ws, the AWS SDK), so that the cell can name those still pending after
 * router.close(). The global functions are wrapped for the duration of the cell only.
 */

interface Tracked {
  timer: NodeJS.Timeout;
  /** Where it was created (the first frames of the stack). */
  origin: string;
}

/**
 * Timers that are not the code under test's: vitest's own, and ws's, which only the test
 * servers use (voxroute's WebSocket client is undici's; ws's server keeps a close timer that
 * can outlive its socket by a turn).
 */
const NOT_UNDER_TEST = /[\\/]node_modules[\\/](vitest|@vitest|tinypool|tinyspy|ws)[\\/]/;

/** Starts recording; `stop()` restores the globals and gives the timers still pending and referenced. */
export function trackTimers(): { stop(): string[] } {
  const created: Tracked[] = [];
  const { setTimeout: realTimeout, setInterval: realInterval } = globalThis;
  const wrap = <F extends typeof setTimeout | typeof setInterval>(real: F): F =>
    ((...args: Parameters<F>) => {
      const timer = (real as (...a: unknown[]) => NodeJS.Timeout)(...args);
      const origin = (new Error().stack ?? '').split('\n').slice(2, 6).join(' <- ');
      created.push({ timer, origin });
      return timer;
    }) as unknown as F;
  globalThis.setTimeout = wrap(realTimeout);
  globalThis.setInterval = wrap(realInterval);
  let stopped = false;
  return {
    stop() {
      if (!stopped) {
        stopped = true;
        globalThis.setTimeout = realTimeout;
        globalThis.setInterval = realInterval;
      }
      return created
        .filter(({ timer, origin }) => {
          const pending = !(timer as unknown as { _destroyed: boolean })._destroyed && timer.hasRef();
          return pending && !NOT_UNDER_TEST.test(origin);
        })
        .map(({ origin }) => origin.trim());
    },
  };
}
