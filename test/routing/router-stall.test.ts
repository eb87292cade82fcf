import { describe, expect, it } from 'vitest';
import { TimeoutError, type TimeoutPhase } from '../../src/errors/index.js';
import { isRouterStall, STALL_TOLERANCE_MS } from '../../src/internal/stall.js';
import type { BreakerFailure } from '../../src/routing/health/index.js';
import type { CandidateHealth } from '../../src/routing/route-run.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { PhaseDeadlines } from '../../src/transport/phase-deadlines.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { deferred } from '../helpers/deferred.js';
import { BlockableClock } from './blockable-clock.js';
import { answering, delta } from './chat-candidates.js';
import { aborted, candidate, fakeRun } from './helpers.js';

const turn = () => new Promise((r) => setImmediate(r));

function fakeHealth(): CandidateHealth & { failures: BreakerFailure[] } {
  const failures: BreakerFailure[] = [];
  return {
    failures,
    allows: () => true,
    tryAcquire: () => true,
    recordSuccess: () => {},
    recordFailure: (f) => failures.push(f),
    release: () => {},
  };
}

/**
 * Provider a (first-chunk deadline 1000 ms) sends its first chunk when `send()` is called; b
 * answers at once. The call has started and asked for its first item (`first`), and a turn of
 * the event loop has run.
 */
async function setup() {
  const clock = new BlockableClock();
  const { promise: gate, resolve: send } = deferred();
  const a = candidate<ChatEvent>(
    'a',
    async function* (attempt) {
      await Promise.race([gate, aborted(attempt.signal)]);
      if (!attempt.signal.aborted) yield delta('a');
    },
    1000,
  );
  const health = fakeHealth();
  const aHealth = Object.assign(a, { health });
  const run = fakeRun([aHealth, answering('b')], { clock });
  const stream = routedStream(run);
  const iterator = stream[Symbol.asyncIterator]();
  const first = iterator.next();
  await turn();
  return { clock, send, run, health, stream, iterator, first };
}

/** An idle deadline of 100 ms on `clock`, past headers and first byte; `expired` records each expiry. */
function idleDeadline(clock: BlockableClock) {
  const expired: [TimeoutPhase, number, boolean][] = [];
  const d = new PhaseDeadlines(clock, { idleMs: 100 }, true, (phase, ms, stalled) =>
    expired.push([phase, ms, stalled]),
  );
  d.markHeaders();
  d.markFirstByte();
  return { d, expired };
}

describe('router stall: a deadline that passes while the event loop is blocked', () => {
  it('is not charged to the provider: fallback happens, but no failure is recorded and the breaker ignores it', async () => {
    const { clock, run, health, stream, iterator, first } = await setup();
    clock.advance(500);
    clock.block(700); // the loop is blocked past a's 1000 ms deadline
    clock.advance(0); // the deadline fires 200 ms late: one more turn for waiting I/O
    await turn();
    clock.advance(0); // nothing came: the attempt times out, marked as our stall
    expect(await first).toEqual({ done: false, value: delta('b') });
    await iterator.next();
    const result = await stream.result;
    const error = result.attempts[0]!.error as TimeoutError;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error.phase).toBe('first-chunk');
    expect(isRouterStall(error)).toBe(true);
    expect(result.provider).toBe('b');
    expect(run.tracker.snapshot(run.candidates[0]!.key).errors).toBe(0);
    expect(health.failures).toEqual([{ kind: 'ignored' }]);
  });

  it('reads a first chunk that was waiting when the late timer fired: the provider serves the call', async () => {
    const { clock, send, health, stream, iterator, first } = await setup();
    clock.block(1000 + STALL_TOLERANCE_MS + 50);
    clock.advance(0);
    send(); // the bytes were already in the socket
    await turn();
    clock.advance(0);
    expect(await first).toEqual({ done: false, value: delta('a') });
    await iterator.next();
    const result = await stream.result;
    expect(result.provider).toBe('a');
    expect(result.attempts.map((x) => x.provider)).toEqual(['a']);
    expect(health.failures).toEqual([]);
  });

  it('a deadline that fires on time is charged as before (control)', async () => {
    const { clock, run, health, stream, iterator, first } = await setup();
    clock.advance(1000);
    expect(await first).toEqual({ done: false, value: delta('b') });
    await iterator.next();
    const result = await stream.result;
    expect(isRouterStall(result.attempts[0]!.error)).toBe(false);
    expect(run.tracker.snapshot(run.candidates[0]!.key).errors).toBe(1);
    expect(health.failures).toEqual([{ kind: 'failure' }]);
  });

  it('transport idle deadline: a late timer gets one more turn, then expires marked stalled', () => {
    const clock = new BlockableClock();
    const { expired } = idleDeadline(clock);
    clock.block(300);
    clock.advance(0);
    expect(expired).toEqual([]);
    clock.advance(0);
    expect(expired).toEqual([['idle', 100, true]]);
  });

  it('transport idle deadline: bytes read during the extra turn keep the stream alive', () => {
    const clock = new BlockableClock();
    const { d, expired } = idleDeadline(clock);
    clock.block(300);
    clock.advance(0);
    d.activity();
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['idle', 100, false]]);
  });
});
