import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallScope } from '../../src/routing/call-scope.js';
import { RouterEmitter } from '../../src/routing/events.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { TailModel } from '../../src/routing/tail.js';
import { candidate, fakeRun, ManualClock } from './helpers.js';

/** Issue 15, P1: a call builds nothing it does not need. */
describe('per-call work that no one asked for', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function* two() {
    yield 'a';
    yield 'b';
  }

  it('builds no event object and emits nothing when no listener is attached', async () => {
    const emit = vi.spyOn(RouterEmitter.prototype, 'emit');
    const run = fakeRun([candidate('p', () => two())], { emitter: new RouterEmitter(() => {}) });
    const out: string[] = [];
    for await (const item of routedStream(run)) out.push(item);
    expect(out).toEqual(['a', 'b']);
    expect(emit).toHaveBeenCalledTimes(0);
  });

  it('builds only the events that have a listener, with every field', async () => {
    const emitter = new RouterEmitter(() => {});
    const emit = vi.spyOn(emitter, 'emit');
    const seen: unknown[] = [];
    emitter.on('first-chunk', (e) => seen.push(e));
    const clock = new ManualClock();
    const run = fakeRun([candidate('p', () => two())], { emitter, clock });
    const stream = routedStream(run);
    for await (const _ of stream) {
      // drain
    }
    expect(emit.mock.calls.map(([name]) => name)).toEqual(['first-chunk']);
    expect(seen).toEqual([
      {
        capability: 'chat',
        route: 'chat',
        provider: 'p',
        attempt: 1,
        model: 'm',
        timeToFirstChunkMs: 0,
        elapsedMs: 0,
      },
    ]);
    expect((await stream.result).provider).toBe('p');
  });

  it('answers the tail quantiles of a deadline without building the full summary, with the same values', () => {
    const model = new TailModel();
    const summary = vi.spyOn(model, 'summary');
    const samples = [120, 130, 125, 140, 900, 135, 128, 131];
    samples.forEach((ms, i) => {
      model.record(ms, i * 100);
    });
    const q = model.quantiles();
    expect(summary).toHaveBeenCalledTimes(0);
    summary.mockRestore();
    const full = model.summary()!;
    expect(q).toEqual({ p95Ms: full.p95Ms, p99Ms: full.p99Ms });
  });

  it('tracker.tail() reads the quantiles, not the summary', () => {
    const tracker = new LatencyTracker();
    const key = LatencyTracker.key('p', 'tts', 'v');
    for (let i = 0; i < 6; i++) tracker.recordSuccess(key, 200 + i, i * 1000);
    const summary = vi.spyOn(TailModel.prototype, 'summary');
    const tail = tracker.tail(key);
    expect(summary).toHaveBeenCalledTimes(0);
    summary.mockRestore();
    const full = tracker.model(key, 6000)!;
    expect(tail).toEqual({ samples: 6, p95Ms: full.p95Ms, p99Ms: full.p99Ms });
  });

  it('calls in progress share one listener on the router close signal; a call that ended is not aborted', async () => {
    const closing = new AbortController();
    const clock = new ManualClock();
    const [a, b, ended] = [new CallScope(), new CallScope(), new CallScope()];
    for (const scope of [a, b, ended]) scope.open(undefined, closing.signal, clock, undefined);
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(1);
    ended.dispose();
    let settled = 0;
    void a.aborted.then(() => settled++);
    closing.abort();
    expect([a.signal.aborted, b.signal.aborted, ended.signal.aborted]).toEqual([true, true, false]);
    expect((a.signal.reason as Error).name).toBe('AbortError');
    expect(a.abortError(false).message).toBe('The router was closed');
    await a.aborted;
    expect(settled).toBe(1);
    a.dispose();
    b.dispose();
  });

  it("a call's total deadline and the caller's signal abort through the scope, with their reasons", async () => {
    const clock = new ManualClock();
    const closing = new AbortController();
    const timed = new CallScope();
    timed.open(undefined, closing.signal, clock, 50);
    clock.advance(50);
    expect(timed.abortError(false).name).toBe('TimeoutError');
    await expect(timed.aborted).resolves.toBe('aborted');
    timed.dispose();
    expect(clock.pendingTimers).toBe(0);
    const caller = new AbortController();
    const scope = new CallScope();
    scope.open(caller.signal, closing.signal, clock, undefined);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    expect(scope.signal.aborted).toBe(true);
    expect(scope.abortError(false).message).toBe('The call was aborted');
    scope.dispose();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
