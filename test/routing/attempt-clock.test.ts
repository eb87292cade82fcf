import { describe, expect, it } from 'vitest';
import type { AbortSource } from '../../src/internal/abort-link.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import type { RouteCandidate } from '../../src/routing/route-run.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { collect } from '../helpers/index.js';
import { delta } from './chat-candidates.js';
import { aborted, fakeRun, ManualClock } from './helpers.js';

const tick = () => new Promise((r) => setImmediate(r));

/**
 * A candidate that says when its clock starts (RouteCandidate.startsClock): the test's `gate`
 * resolves when its input is ready (the attempt then calls `ready`), `answer` when it answers.
 */
function clocked(provider: string, firstChunkMs: number) {
  let openGate!: () => void;
  let answer!: () => void;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const c: RouteCandidate<ChatEvent> & { starts: number; signal?: AbortSource } = {
    provider,
    key: LatencyTracker.key(provider, 'chat', 'm'),
    model: 'm',
    firstChunkMs,
    deadlines: {},
    starts: 0,
    startsClock: true,
    start(attempt, ready) {
      c.starts++;
      c.signal = attempt.signal;
      return (async function* () {
        await gate;
        ready?.();
        await Promise.race([answered, aborted(attempt.signal)]);
        if (attempt.signal.aborted) throw attempt.signal.reason;
        yield delta(provider);
      })();
    },
  };
  return { c, openGate, answer };
}

/**
 * a (first-chunk deadline 150 ms, hedge after 100 ms) then b (first-chunk deadline
 * `bFirstChunkMs`), both {@link clocked}, on a manual clock with an unlimited hedge budget; the
 * call is read in the background (`items`).
 */
function hedgedPair(bFirstChunkMs: number) {
  const clock = new ManualClock();
  const a = clocked('a', 150);
  a.c.hedgeAfterMs = 100;
  const b = clocked('b', bFirstChunkMs);
  const run = fakeRun([a.c, b.c], { clock, hedgeBudget: { take: () => true } });
  const stream = routedStream(run);
  return { clock, a, b, run, stream, items: collect(stream) };
}

describe('an attempt whose clock starts when its input is ready (streamed text into TTS)', () => {
  it('runs no first-chunk deadline and no hedge delay before ready, and measures TTFC from ready', async () => {
    const { clock, a, b, run, stream, items } = hedgedPair(150);
    await tick();
    // The input source thinks for 1 s: past both the hedge delay and the first-chunk deadline.
    clock.advance(1000);
    await tick();
    expect(b.c.starts).toBe(0);
    expect(a.c.signal?.aborted).toBe(false);
    // The input is ready now; the provider answers 60 ms later (before the 100 ms hedge delay).
    a.openGate();
    await tick();
    clock.advance(60);
    await tick();
    expect(b.c.starts).toBe(0);
    a.answer();
    expect(await items).toEqual([delta('a')]);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome, x.timeToFirstChunkMs])).toEqual([
      ['a', 'success', 60],
    ]);
    expect(run.tracker.snapshot(a.c.key)).toMatchObject({ samples: 1, ewmaMs: 60 });
    expect(run.events.map(([name]) => name)).toEqual(['attempt', 'first-chunk']);
  });

  it('after ready, the hedge delay and the first-chunk deadline run from there', async () => {
    const { clock, a, b, run, items } = hedgedPair(0);
    await tick();
    clock.advance(500);
    a.openGate();
    await tick();
    clock.advance(99);
    await tick();
    expect(b.c.starts).toBe(0);
    clock.advance(1);
    await tick();
    // 100 ms after ready: the hedge starts b beside a.
    expect(b.c.starts).toBe(1);
    b.openGate();
    await tick();
    b.answer();
    expect(await items).toEqual([delta('b')]);
    expect(a.c.signal?.aborted).toBe(true);
    // a was cancelled after its clock started: its 100 ms counts as a lower bound (not a failure).
    expect(run.tracker.snapshot(a.c.key)).toMatchObject({ errors: 0 });
  });
});
