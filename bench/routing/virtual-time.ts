/**
 * Virtual time for the routing benchmark's `--clock virtual` mode: a clock whose time moves
 * only when everything in the process is waiting on one of its timers, so a run is exact and
 * repeatable (the same figures on any machine, however loaded) and takes no real time waiting.
 * The router gets it as its `clock`, the mocks as their `delay` and `now`, and requests go to
 * the mocks in-process through a `fetch` that calls `mock.handle()` (no sockets).
 */
import type { MockProvider } from 'voxroute/testing';

interface Timer {
  at: number;
  id: number;
  fn: () => void;
}

/** Real event-loop turns let run between two steps of virtual time. */
const SETTLE_TURNS = 6;

/** A clock with virtual timers (the router's `Clock` shape) and a driver that advances it. */
export class VirtualTime {
  #now = 0;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();

  /** Virtual now, in ms (starts at 0). */
  now(): number {
    return this.#now;
  }

  /** Calls `fn` once virtual time reaches now + `ms`; returns a handle for {@link clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** A mock `delay`: resolves after `ms` of virtual time, or at once when `signal` aborts. */
  readonly delay = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        this.clearTimeout(handle);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const handle = this.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });

  /**
   * Runs until `done()` is true: lets the process settle (a few real event-loop turns), then
   * moves virtual time to the earliest timer and fires it, and so on.
   * @throws Error when nothing is scheduled and `done()` stays false (the run would never end).
   */
  async run(done: () => boolean): Promise<void> {
    let idle = 0;
    for (;;) {
      for (let i = 0; i < SETTLE_TURNS; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      if (done()) return;
      let next: Timer | undefined;
      for (const t of this.#timers.values())
        if (!next || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
      if (!next) {
        // Nothing scheduled: real work (if any) is still finishing; give it real time.
        if (++idle > 1_000) throw new Error('virtual time: nothing is scheduled and the run is not done');
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
        continue;
      }
      idle = 0;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
  }
}

/** A `fetch` that hands each request to the mock serving its origin, in-process. */
export function inProcessFetch(mocks: ReadonlyMap<string, MockProvider>): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const mock = mocks.get(new URL(request.url).origin);
    if (!mock) throw new TypeError(`no mock serves ${request.url}`);
    return mock.handle(request);
  };
}
