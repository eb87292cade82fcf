import type { Clock } from '../../../src/internal/clock.js';

/**
 * The system clock, whose time `skip(ms)` moves forward at once without firing any timer: a
 * silence of `ms` passes without the test waiting for it. Timers are the real ones (a timer
 * armed before a skip still fires at its real time).
 */
export class SkippingClock implements Clock {
  #offset = 0;
  now(): number {
    return performance.now() + this.#offset;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    return setTimeout(fn, ms);
  }
  clearTimeout(handle: unknown): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }
  skip(ms: number): void {
    this.#offset += ms;
  }
}
