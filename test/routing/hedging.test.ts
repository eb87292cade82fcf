import { describe, expect, it } from 'vitest';
import { ProviderError, TimeoutError } from '../../src/errors/index.js';
import type { CandidateHealth } from '../../src/routing/route-run.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { deferred } from '../helpers/deferred.js';
import { collect, drain } from '../helpers/index.js';
import { answering, delta, failing, gated, stalling } from './chat-candidates.js';
import { candidate, fakeRun, ManualClock } from './helpers.js';

const tick = () => new Promise((r) => setImmediate(r));

/** A health double that records what the loop told it. */
function recordingHealth(): CandidateHealth & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    allows: () => true,
    tryAcquire: () => {
      calls.push('acquire');
      return true;
    },
    recordSuccess: () => calls.push('success'),
    recordFailure: (f) => calls.push(`failure:${JSON.stringify(f)}`),
    release: () => calls.push('release'),
  };
}

const unlimited = { take: () => true };

const overloaded = (provider: string) =>
  new ProviderError('overloaded', { provider, status: 503, retryable: true });

/** a stalls (hedge after 100 ms), b fails at once with a 503, c answers 'c'. */
function stallFailAnswer() {
  const a = stalling('a', 'late from a');
  a.hedgeAfterMs = 100;
  return { a, b: failing('b', overloaded('b')), c: answering('c') };
}

describe('hedged requests', () => {
  it('starts the second choice after the hedge delay; the first chunk wins and the loser is closed and not charged', async () => {
    const clock = new ManualClock();
    const a = stalling('a', 'late from a');
    a.hedgeAfterMs = 200;
    const aHealth = recordingHealth();
    a.health = aHealth;
    const b = answering('b');
    const run = fakeRun([a, b], { clock, hedgeBudget: unlimited });
    const stream = routedStream(run);
    const items = collect(stream);
    await tick();
    expect(b.starts).toBe(0);
    clock.advance(199);
    await tick();
    expect(b.starts).toBe(0);
    clock.advance(1);
    expect(await items).toEqual([delta('b')]);
    expect(a.signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'aborted'],
      ['b', 'success'],
    ]);
    expect(run.events.map(([name, e]) => `${name}:${(e as { provider: string }).provider}`)).toEqual([
      'attempt:a',
      'hedge:b',
      'first-chunk:b',
    ]);
    // The loser is not charged a failure, and its probe slot is given back. Its 200 ms is only a
    // lower bound of its TTFC: with no score yet it is not recorded (it must not become the
    // start of the EWMA), so a stays unmeasured.
    expect(run.tracker.snapshot(a.key)).toMatchObject({
      errors: 0,
      samples: 0,
      ewmaMs: undefined,
      scoreMs: undefined,
    });
    expect(aHealth.calls).toEqual(['acquire', 'release']);
  });

  it('lets the first choice win when it answers after the hedge started, and aborts the hedge', async () => {
    const clock = new ManualClock();
    const a = gated('a', 'a');
    a.hedgeAfterMs = 100;
    const b = stalling('b');
    const run = fakeRun([a, b], { clock, hedgeBudget: unlimited });
    const stream = routedStream(run);
    const items = collect(stream);
    await tick();
    clock.advance(100);
    await tick();
    expect(b.starts).toBe(1);
    clock.advance(50);
    a.release();
    expect(await items).toEqual([delta('a')]);
    expect(b.signal?.aborted).toBe(true);
    expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'success'],
      ['b', 'aborted'],
    ]);
    expect(run.tracker.snapshot(b.key).errors).toBe(0);
    expect(run.tracker.snapshot(a.key).ewmaMs).toBe(150);
  });

  it('replaces a hedge that fails at once with the next choice, instead of waiting on the slow first choice alone', async () => {
    const clock = new ManualClock();
    const { a, b, c } = stallFailAnswer();
    const run = fakeRun([a, b, c], { clock, hedgeBudget: unlimited });
    const stream = routedStream(run);
    const items = collect(stream);
    await tick();
    clock.advance(100);
    expect(await items).toEqual([delta('c')]);
    expect(a.signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome, x.startedAtMs])).toEqual([
      ['a', 'aborted', 0],
      ['b', 'failed', 100],
      ['c', 'success', 100],
    ]);
    expect(result.timeToFirstChunkMs).toBe(100);
    expect(run.events.map(([name, e]) => `${name}:${(e as { provider: string }).provider}`)).toEqual([
      'attempt:a',
      'hedge:b',
      'error:b',
      'fallback:b',
      'attempt:c',
      'first-chunk:c',
    ]);
    const fallback = run.events.find(([name]) => name === 'fallback')![1] as { next: string };
    expect(fallback.next).toBe('c');
  });

  it('when the first choice fails before its hedge is slow, the next choice starts at the hedge’s own delay (charged as a fallback), not never', async () => {
    const clock = new ManualClock();
    const gate = deferred();
    const a = candidate<ChatEvent>('a', async function* () {
      await gate.promise;
      yield* [];
      throw overloaded('a');
    });
    a.hedgeAfterMs = 100;
    const b = stalling('b', 'late from b');
    b.hedgeAfterMs = 100;
    const c = answering('c');
    const ledger: string[] = [];
    const budget = {
      take: () => {
        ledger.push('take');
        return true;
      },
      charge: () => void ledger.push('charge'),
    };
    const run = fakeRun([a, b, c], { clock, hedgeBudget: budget });
    const stream = routedStream(run);
    const items = collect(stream);
    await tick();
    clock.advance(100);
    await tick();
    expect(b.starts).toBe(1);
    clock.advance(30);
    gate.resolve();
    await tick();
    await tick();
    // b has run 30 ms of its 100: it is not slow yet, so c waits.
    expect(c.starts).toBe(0);
    clock.advance(69);
    await tick();
    expect(c.starts).toBe(0);
    clock.advance(1);
    expect(await items).toEqual([delta('c')]);
    expect(b.signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome, x.startedAtMs])).toEqual([
      ['a', 'failed', 0],
      ['b', 'aborted', 100],
      ['c', 'success', 200],
    ]);
    expect(ledger).toEqual(['take', 'charge']);
  });

  it('charges the budget for each fallback: a failed hedge replaced by the next choice takes one take() and one charge()', async () => {
    const clock = new ManualClock();
    const { a, b, c } = stallFailAnswer();
    const ledger: string[] = [];
    const budget = {
      take: () => {
        ledger.push('take');
        return true;
      },
      charge: () => {
        ledger.push('charge');
      },
    };
    const items = collect(routedStream(fakeRun([a, b, c], { clock, hedgeBudget: budget })));
    await tick();
    clock.advance(100);
    expect(await items).toEqual([delta('c')]);
    expect(ledger).toEqual(['take', 'charge']);
  });

  it('charges the budget for a plain fallback after a failure, never for the first attempt', async () => {
    const a = failing('a', new ProviderError('down', { provider: 'a', status: 503, retryable: true }));
    const b = answering('b');
    let charged = 0;
    const budget = { take: () => true, charge: () => void charged++ };
    const out = await collect(
      routedStream(fakeRun([a, b], { clock: new ManualClock(), hedgeBudget: budget })),
    );
    expect([out, charged]).toEqual([[delta('b')], 1]);
    await collect(routedStream(fakeRun([b], { clock: new ManualClock(), hedgeBudget: budget })));
    expect(charged).toBe(1);
  });

  it('does not hedge when the budget has no token left', async () => {
    const clock = new ManualClock();
    const a = failing('a', new ProviderError('down', { provider: 'a', status: 503, retryable: true }));
    const { promise: gate, resolve: failA } = deferred();
    const slowA = candidate<ChatEvent>('a', async function* (attempt) {
      await gate;
      yield* a.start(attempt);
    });
    slowA.hedgeAfterMs = 10;
    const b = answering('b');
    const items = collect(routedStream(fakeRun([slowA, b], { clock, hedgeBudget: { take: () => false } })));
    await tick();
    clock.advance(50);
    await tick();
    expect(b.starts).toBe(0);
    failA();
    expect(await items).toEqual([delta('b')]);
    expect(b.starts).toBe(1);
  });

  it('tells the breaker of each outcome: Retry-After on failure, success on the winner', async () => {
    const a = failing(
      'a',
      new ProviderError('slow down', { provider: 'a', status: 429, retryable: true, retryAfterMs: 2000 }),
    );
    const b = answering('b');
    const c = failing('c', new ProviderError('bad key', { provider: 'c', status: 401 }));
    const [ha, hb, hc] = [recordingHealth(), recordingHealth(), recordingHealth()];
    a.health = ha;
    b.health = hb;
    c.health = hc;
    await collect(routedStream(fakeRun([a, c, b])));
    expect(ha.calls).toEqual(['acquire', 'failure:{"kind":"failure","retryAfterMs":2000}']);
    expect(hc.calls).toEqual(['acquire', 'failure:{"kind":"auth"}']);
    expect(hb.calls).toEqual(['acquire', 'success']);
  });
});

describe('the call budget (deadlineMs)', () => {
  it('ends a call whose attempts all stall with TimeoutError phase total, closing every attempt', async () => {
    const clock = new ManualClock();
    const [a, b] = [stalling('a'), stalling('b')];
    a.hedgeAfterMs = 100;
    const stream = routedStream(fakeRun([a, b], { clock, deadlineMs: 1000, hedgeBudget: unlimited }));
    const done = drain(stream);
    await tick();
    clock.advance(100);
    await tick();
    expect([a.starts, b.starts]).toEqual([1, 1]);
    clock.advance(900);
    const { items, error } = await done;
    expect(items).toEqual([]);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect([(error as TimeoutError).phase, (error as TimeoutError).timeoutMs]).toEqual(['total', 1000]);
    expect([a.signal?.aborted, b.signal?.aborted]).toEqual([true, true]);
    await expect(stream.result).rejects.toBe(error);
  });
});

describe('hedged race: a request error on one side', () => {
  /**
   * a answers (or fails, `aFails`) when `answer` is called; b refuses the request (400) at once;
   * c must never start. `answerAfterHedge` moves to the hedge (200 ms), expects b started, then
   * lets a answer.
   */
  function race(aFails: boolean) {
    const clock = new ManualClock();
    const { promise: gate, resolve: answer } = deferred();
    const a = candidate<ChatEvent>('a', async function* () {
      await gate;
      if (aFails) throw overloaded('a');
      yield delta('from a');
    });
    a.hedgeAfterMs = 200;
    const b = failing(
      'b',
      new ProviderError('max_tokens too large for this model', {
        provider: 'b',
        status: 400,
        retryable: false,
      }),
    );
    const c = answering('c', 'from c');
    const stream = routedStream(fakeRun([a, b, c], { clock, hedgeBudget: unlimited }));
    const items = collect(stream);
    items.catch(() => {});
    const answerAfterHedge = async () => {
      await tick();
      clock.advance(200);
      await tick();
      expect(b.starts).toBe(1);
      await tick();
      answer();
    };
    return { answerAfterHedge, stream, items, c };
  }

  it('the first choice that accepted the request still answers; the 400 ends only its own attempt', async () => {
    const { answerAfterHedge, stream, items, c } = race(false);
    await answerAfterHedge();
    expect(await items).toEqual([delta('from a')]);
    const result = await stream.result;
    expect(result.provider).toBe('a');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'success'],
      ['b', 'failed'],
    ]);
    expect(c.starts).toBe(0);
  });

  it('when the other side fails too, the call ends with the request error, and no other candidate starts', async () => {
    const { answerAfterHedge, items, c } = race(true);
    await answerAfterHedge();
    const error = await items.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(400);
    expect((error as ProviderError).message).toBe('max_tokens too large for this model');
    expect(c.starts).toBe(0);
  });
});
