import type { Clock } from '../../src/internal/clock.js';

/** A Clock whose time only moves when the test calls `advance`. Counts the timers it creates. */
export class FakeClock implements Clock {
  private time = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  /** Number of setTimeout calls so far. */
  created = 0;

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + ms, fn });
    this.created++;
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Pending timers. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * True while a timer due at `at` (this clock's ms) is pending: a test waits for this (with
   * `until`) before an `advance` that must fire that timer, instead of a few ms of real time
   * in which the code under test may not have set it yet on a loaded machine.
   */
  hasTimerAt(at: number): boolean {
    for (const timer of this.timers.values()) if (timer.at === at) return true;
    return false;
  }

  /**
   * Moves time forward by `ms` without firing anything, as a blocked event loop does: timers
   * that came due fire late, at the next `advance`.
   */
  block(ms: number): void {
    this.time += ms;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let nextId = -1;
      let nextAt = Number.POSITIVE_INFINITY;
      for (const [id, timer] of this.timers) {
        if (timer.at <= end && timer.at < nextAt) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId === -1) break;
      const timer = this.timers.get(nextId)!;
      this.timers.delete(nextId);
      this.time = Math.max(this.time, timer.at);
      timer.fn();
    }
    this.time = end;
  }
}
