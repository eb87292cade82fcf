import type { Clock } from '../../src/internal/clock.js';

/**
 * A clock whose event loop can be blocked: `block(ms)` moves time on without firing any timer
 * (a long synchronous task), so the timers due meanwhile fire late on the next `advance`.
 */
export class BlockedClock implements Clock {
  #time = 0;
  #seq = 0;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.#time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.#timers.set(id, { at: this.#time + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  block(ms: number): void {
    this.#time += ms;
  }
  /** Fires the timers due by now + ms in order, each at max(its due time, now). */
  advance(ms: number): void {
    const end = this.#time + ms;
    for (;;) {
      const next = [...this.#timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((x, y) => x[1].at - y[1].at)[0];
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#time = Math.max(this.#time, next[1].at);
      next[1].fn();
    }
    this.#time = end;
  }
}
