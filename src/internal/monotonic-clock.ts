import type { Clock } from './clock.js';

/**
 * `clock` made monotonic: `now()` never returns less than the last value it returned, so a
 * caller-supplied clock that steps back (an NTP step of a wall clock, a test clock set back)
 * cannot make an elapsed time, a latency sample or a hedge delay negative. While the given clock
 * is behind the last value returned, time stands still at that value; once it passes it, time
 * moves on with it. A `now()` that is not a finite number (NaN, Infinity) is ignored the same
 * way (the last value, or 0 before any). Timers go to `clock` with a delay clamped to a finite
 * number from 0 (a negative or NaN delay fires at once, as the global setTimeout does).
 * Methods are called on `clock` itself, so a class instance keeps its `this`.
 */
export function monotonicClock(clock: Clock): Clock {
  let last = Number.NEGATIVE_INFINITY;
  return {
    now() {
      const t = clock.now();
      if (Number.isFinite(t) && t > last) last = t;
      else if (last === Number.NEGATIVE_INFINITY) last = 0;
      return last;
    },
    setTimeout: (fn, ms) => clock.setTimeout(fn, Number.isFinite(ms) && ms > 0 ? ms : 0),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
}
