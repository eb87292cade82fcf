import { ManualClock } from './helpers.js';

/**
 * A clock whose event loop can be blocked: `block(ms)` moves time on without running any timer
 * (a long synchronous task), so the timers due meanwhile fire late on the next `advance`.
 */
export class BlockableClock extends ManualClock {
  block(ms: number): void {
    this.current += ms;
  }
  /**
   * Fires every timer due by now + ms, in order, each at max(its due time, now). A timer set
   * by one of them runs on the next call only (the next turn of the event loop): `advance(0)`
   * after `block` fires the overdue ones.
   */
  override advance(ms: number): void {
    const target = this.current + ms;
    const existing = new Set(this.timers.keys());
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([id, t]) => existing.has(id) && t.at <= target)
        .sort((x, y) => x[1].at - y[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].fn();
    }
    this.current = Math.max(this.current, target);
  }
}
