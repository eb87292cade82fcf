import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/internal/clock.js';
import { deferred } from '../helpers/deferred.js';
import { FakeClock } from '../transport/fake-clock.js';
import { answerChat, drain, httpServer, router } from './wire/servers.js';

/**
 * Kind: a caller's clock that goes backwards (a wall clock stepped back by NTP, a test clock set
 * back) never gives a negative latency, a negative duration or a NaN score. The router reads the
 * caller's `clock` through a monotonic wrapper: a step back makes time stand still until the
 * clock passes the last value read, so a first chunk that arrives after a step back of 400 ms
 * is measured as 0 ms, not -400 ms, and later calls measure as usual.
 *
 * The provider is a loopback server speaking OpenAI's chat SSE; it answers when the test says,
 * after the test has stepped the clock. The clock's timers are a fake clock's; its `now()` is
 * that clock's time plus an offset the test steps.
 */

/** A caller clock whose `now()` the test can step back (or make NaN), over a FakeClock's timers. */
class SteppingClock implements Clock {
  readonly timers = new FakeClock();
  offset = 1_000;
  nan = false;
  now(): number {
    return this.nan ? Number.NaN : this.offset + this.timers.now();
  }
  setTimeout(fn: () => void, ms: number): unknown {
    return this.timers.setTimeout(fn, ms);
  }
  clearTimeout(handle: unknown): void {
    this.timers.clearTimeout(handle);
  }
}

describe('a caller clock that goes backwards', () => {
  it('a step back during the wait for the first chunk: latencies 0, never negative; later calls measure as usual', async () => {
    const releases = [deferred(), deferred(), deferred()];
    const wire = await httpServer(async (req, res, n) => {
      req.resume();
      await releases[n - 1]!.promise;
      answerChat(res, 'Hi.');
    });
    const clock = new SteppingClock();
    const r = router(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, chat: { models: { fast: 'm' } } },
        },
        routes: { chat: { providers: ['a'], firstChunkTimeoutMs: 5_000 } },
      },
      { clock },
    );
    const call = async (n: number, step: () => void) => {
      const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
      const done = drain(stream);
      await wire.request(n);
      step();
      releases[n - 1]!.resolve();
      expect((await done).error).toBeUndefined();
      return stream.result;
    };

    // Call 1 starts at 1000; the clock steps back to 600 before the answer.
    const first = await call(1, () => {
      clock.offset -= 400;
    });
    expect([first.timeToFirstChunkMs, first.durationMs, first.attempts[0]!.timeToFirstChunkMs]).toEqual([
      0, 0, 0,
    ]);
    expect(first.attempts[0]!.durationMs).toBe(0);
    const one = r.stats().providers[0]!;
    expect([one.samples, one.p50Ms, one.ewmaMs, one.scoreMs, one.errors]).toEqual([1, 0, 0, 0, 0]);

    // The clock is at 600, behind the 1000 already read: time stands still until it passes it.
    // Call 2 starts at 1300 (600 + 700) and answers 50 ms later.
    clock.timers.advance(700);
    const second = await call(2, () => clock.timers.advance(50));
    expect([second.timeToFirstChunkMs, second.durationMs]).toEqual([50, 50]);

    // Call 3: the clock gives NaN while the answer comes: counted as the last value read.
    clock.timers.advance(100);
    const third = await call(3, () => {
      clock.nan = true;
    });
    clock.nan = false;
    expect([third.timeToFirstChunkMs, third.durationMs]).toEqual([0, 0]);

    // The first call's sample is a cold start, outside the distribution: the quantiles hold 50
    // and 0; the EWMA starts at 50 and folds in the 0 of call 3 after 100 ms (decay 10 s).
    const stats = r.stats().providers[0]!;
    expect([stats.samples, stats.errors, stats.p50Ms, stats.p99Ms]).toEqual([3, 0, 50, 50]);
    expect(stats.ewmaMs).toBeCloseTo(50 * Math.exp(-100 / 10_000), 9);
    expect(stats.scoreMs).toBe(stats.ewmaMs);
    for (const value of [
      stats.p50Ms,
      stats.p90Ms,
      stats.p99Ms,
      stats.ewmaMs,
      stats.scoreMs,
      stats.lastUpdateMs,
    ])
      expect(value).toBeGreaterThanOrEqual(0);
  });
});
