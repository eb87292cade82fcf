import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/internal/clock.js';
import { monotonicClock } from '../../src/internal/monotonic-clock.js';

/** A clock that returns the scripted values in turn and records the delays of its timers. */
function scripted(values: number[]): Clock & { delays: number[] } {
  let i = 0;
  const delays: number[] = [];
  return {
    delays,
    now: () => values[i++]!,
    setTimeout(_fn, ms) {
      delays.push(ms);
      return delays.length;
    },
    clearTimeout() {},
  };
}

describe('monotonicClock', () => {
  it('never returns less than the last value it returned; moves on once the clock passes it', () => {
    const clock = monotonicClock(scripted([100, 150, 90, 120, 149, 160, 159, 200]));
    expect(Array.from({ length: 8 }, () => clock.now())).toEqual([100, 150, 150, 150, 150, 160, 160, 200]);
  });

  it('a value that is not a finite number counts as the last value (0 before any)', () => {
    const clock = monotonicClock(
      scripted([Number.NaN, 10, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 12]),
    );
    expect(Array.from({ length: 6 }, () => clock.now())).toEqual([0, 10, 10, 10, 10, 12]);
  });

  it('timer delays reach the clock as finite numbers from 0', () => {
    const inner = scripted([]);
    const clock = monotonicClock(inner);
    for (const ms of [25, 0, -40, Number.NaN, Number.POSITIVE_INFINITY]) clock.setTimeout(() => {}, ms);
    expect(inner.delays).toEqual([25, 0, 0, 0, 0]);
  });

  it('calls the clock’s methods on the clock itself (a class instance keeps its this)', () => {
    class Own implements Clock {
      t = 7;
      now() {
        return this.t;
      }
      setTimeout(fn: () => void) {
        fn();
        return this.t;
      }
      clearTimeout() {}
    }
    const clock = monotonicClock(new Own());
    expect(clock.now()).toBe(7);
    let fired = false;
    expect(clock.setTimeout(() => (fired = true), 5)).toBe(7);
    expect(fired).toBe(true);
  });
});
