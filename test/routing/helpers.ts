import type { AbortSource } from '../../src/internal/abort-link.js';
import type { Clock } from '../../src/internal/clock.js';
import type { AttemptContext } from '../../src/providers/types.js';
import { RouterEmitter } from '../../src/routing/events.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import type { RouteCandidate, RouteRun } from '../../src/routing/route-run.js';
import type { HttpTransport } from '../../src/transport/types.js';

/** A manual clock: time moves only when the test says so. */
export class ManualClock implements Clock {
  protected current = 0;
  protected readonly timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.timers.set(id, { at: this.current + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = due[1].at;
      due[1].fn();
    }
    this.current = target;
  }
  get pendingTimers(): number {
    return this.timers.size;
  }
}

export const nullTransport: HttpTransport = {
  request: () => Promise.reject(new Error('no transport in this test')),
  close: async () => {},
};

/** A run over fake candidates, with a fresh tracker and emitter. */
export function fakeRun<T>(
  candidates: RouteCandidate<T>[],
  extra: Partial<RouteRun<T>> = {},
): RouteRun<T> & { events: [string, unknown][] } {
  const events: [string, unknown][] = [];
  const emitter = new RouterEmitter(() => {});
  for (const name of ['attempt', 'hedge', 'first-chunk', 'fallback', 'error'] as const) {
    emitter.on(name, (e) => events.push([name, e]));
  }
  return {
    capability: 'chat',
    route: 'chat',
    candidates,
    signal: undefined,
    closeSignal: new AbortController().signal,
    transport: nullTransport,
    clock: extra.clock ?? new ManualClock(),
    tracker: new LatencyTracker(),
    emitter,
    events,
    ...extra,
  };
}

/** A candidate whose stream is the given async generator function. */
export function candidate<T>(
  provider: string,
  start: (attempt: AttemptContext) => AsyncIterable<T>,
  firstChunkMs = 0,
): RouteCandidate<T> & { starts: number } {
  const c = {
    provider,
    key: LatencyTracker.key(provider, 'chat', 'm'),
    model: 'm',
    firstChunkMs,
    deadlines: {},
    starts: 0,
    start(attempt: AttemptContext) {
      c.starts++;
      return start(attempt);
    },
  };
  return c;
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSource): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
