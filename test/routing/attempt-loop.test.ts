import { describe, expect, it } from 'vitest';
import {
  AbortError,
  AllProvidersFailedError,
  ConfigError,
  MidStreamError,
  ProtocolError,
  ProviderError,
  TimeoutError,
} from '../../src/errors/index.js';
import type { AbortSource } from '../../src/internal/abort-link.js';
import { LatencyTracker } from '../../src/routing/latency-tracker.js';
import type { CandidateHealth, RouteCandidate } from '../../src/routing/route-run.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { drain as collect } from '../helpers/index.js';
import { answering, delta, failing, gated, stalling } from './chat-candidates.js';
import { aborted, candidate, fakeRun, ManualClock } from './helpers.js';

const textOf = (e: ChatEvent) => (e.type === 'text-delta' ? e.text : undefined);

describe('the attempt loop', () => {
  it('C30: an error that only appears on the first pull of a lazy stream still falls back', async () => {
    const a = failing(
      'a',
      new ProviderError('Service Unavailable', { provider: 'a', status: 503, retryable: true }),
    );
    const b = candidate<ChatEvent>('b', async function* () {
      yield delta('ok');
      yield { type: 'finish', finishReason: 'stop' };
    });
    const run = fakeRun([a, b], { textOf });
    const stream = routedStream(run);
    const { items, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([delta('ok'), { type: 'finish', finishReason: 'stop' }]);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expect(ProviderError.isInstance(result.attempts[0]!.error)).toBe(true);
    expect(run.events.map(([name, e]) => `${name}:${(e as { provider: string }).provider}`)).toEqual([
      'attempt:a',
      'error:a',
      'fallback:a',
      'attempt:b',
      'first-chunk:b',
    ]);
    expect(run.tracker.snapshot(a.key).errors).toBe(1);
    expect(run.tracker.snapshot(b.key).samples).toBe(1);
  });

  it('C28: a failure after output never replays the prefix on another provider', async () => {
    const a = candidate<ChatEvent>('a', async function* () {
      yield delta('The answer ');
      yield delta('is 4');
      throw new ProviderError('socket reset', { provider: 'a', retryable: true });
    });
    const b = candidate<ChatEvent>('b', async function* () {
      yield delta('The answer is 4.');
    });
    const stream = routedStream(fakeRun([a, b], { textOf }));
    const { items, error } = await collect(stream);
    expect(items).toEqual([delta('The answer '), delta('is 4')]);
    expect(b.starts).toBe(0);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const mid = error as MidStreamError;
    expect(mid.partialOutput).toBe(true);
    expect(mid.retryable).toBe(true);
    expect(mid.provider).toBe('a');
    expect(mid.partialText).toBe('The answer is 4');
    expect(ProviderError.isInstance(mid.cause)).toBe(true);
    await expect(stream.result).rejects.toBe(error);
  });

  it('C29: a stream cut before its end marker after output ends with a typed error, not a clean end', async () => {
    const a = candidate<ChatEvent>('a', async function* () {
      yield delta('one ');
      yield delta('two ');
      yield delta('three');
      throw new ProtocolError('stream ended without [DONE] or a finish reason', { provider: 'a' });
    });
    const stream = routedStream(fakeRun([a], { textOf }));
    const { items, error } = await collect(stream);
    expect(items).toHaveLength(3);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).partialOutput).toBe(true);
    expect(ProtocolError.isInstance((error as MidStreamError).cause)).toBe(true);
  });

  it.each([400, 413, 422])(
    'throws a bad request (%i) at once without trying the next provider, and charges no failure to a',
    async (status) => {
      const bad = new ProviderError('max_tokens is too large', { provider: 'a', status });
      const a = failing('a', bad);
      const b = answering('b', 'never');
      const run = fakeRun([a, b]);
      const stream = routedStream(run);
      const { items, error } = await collect(stream);
      expect(items).toEqual([]);
      expect(error).toBe(bad);
      expect(b.starts).toBe(0);
      await expect(stream.result).rejects.toBe(bad);
      // The caller's request was bad, not the provider: its failure record and tail stay clean.
      expect(run.tracker.snapshot(a.key).errors).toBe(0);
    },
  );

  it('falls back past a provider whose key is refused (401), which is misconfigured, not a bad request', async () => {
    const a = failing('a', new ProviderError('Incorrect API key provided', { provider: 'a', status: 401 }));
    const b = answering('b', 'hi');
    const { items } = await collect(routedStream(fakeRun([a, b])));
    expect(items).toEqual([delta('hi')]);
  });

  it('reports every attempt when all providers fail', async () => {
    const fail = (p: string, status: number) =>
      failing(p, new ProviderError(`status ${status}`, { provider: p, status, retryable: true }));
    const stream = routedStream(fakeRun([fail('a', 503), fail('b', 429)]));
    const { error } = await collect(stream);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const all = error as AllProvidersFailedError;
    expect(all.attempts.map((x) => [x.provider, (x.error as ProviderError).status])).toEqual([
      ['a', 503],
      ['b', 429],
    ]);
    expect(all.retryable).toBe(true);
    expect(all.message).toBe('All providers failed for chat: a: status 503; b: status 429');
    await expect(stream.result).rejects.toBe(error);
  });

  it('abandons a provider that sends nothing by its first-chunk deadline and closes it (C17)', async () => {
    const clock = new ManualClock();
    const a = stalling('a', 'late audio from a', 1500);
    const b = answering('b');
    const stream = routedStream(fakeRun([a, b], { clock }));
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(a.signal?.aborted).toBe(false);
    clock.advance(1499);
    expect(a.signal?.aborted).toBe(false);
    clock.advance(1);
    expect(a.signal?.aborted).toBe(true);
    expect(await first).toEqual({ done: false, value: delta('b') });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    const result = await stream.result;
    const err = result.attempts[0]!.error as TimeoutError;
    expect(TimeoutError.isInstance(err)).toBe(true);
    expect(err.phase).toBe('first-chunk');
    expect(err.timeoutMs).toBe(1500);
    expect(result.provider).toBe('b');
  });

  it("a call's only candidate that misses its first-chunk deadline is closed with that TimeoutError", async () => {
    // The only candidate runs on the call's signal (one abort scope per call): stopping the
    // attempt alone is deferred to the end of the call, which follows at once.
    const clock = new ManualClock();
    const a = stalling('a', 'late', 1500);
    const stream = routedStream(fakeRun([a], { clock }));
    const pending = collect(stream);
    await new Promise((r) => setImmediate(r));
    clock.advance(1499);
    expect(a.signal?.aborted).toBe(false);
    clock.advance(1);
    const { items, error } = await pending;
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expect(a.signal?.aborted).toBe(true);
    const reason = a.signal?.reason as TimeoutError;
    expect(TimeoutError.isInstance(reason)).toBe(true);
    expect([reason.phase, reason.timeoutMs]).toEqual(['first-chunk', 1500]);
    const result = await stream.result.catch((e: unknown) => e);
    expect(result).toBe(error);
  });

  it("a call's only candidate that fails after output is closed (its signal aborted), a clean end is not", async () => {
    let failing: AbortSource | undefined;
    const a = candidate<ChatEvent>('a', async function* (attempt) {
      failing = attempt.signal;
      yield delta('one');
      throw new ProviderError('socket reset', { provider: 'a', retryable: true });
    });
    const { error } = await collect(routedStream(fakeRun([a], { textOf })));
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect(failing?.aborted).toBe(true);
    expect(AbortError.isInstance(failing?.reason)).toBe(true);
    expect((failing?.reason as AbortError | undefined)?.message).toBe('Attempt abandoned');

    let clean: AbortSource | undefined;
    const b = candidate<ChatEvent>('b', async function* (attempt) {
      clean = attempt.signal;
      yield delta('ok');
    });
    const done = await collect(routedStream(fakeRun([b], { textOf })));
    expect(done.items).toEqual([delta('ok')]);
    // A finished attempt's signal is left alone: aborting it could close a reusable socket.
    expect(clean?.aborted).toBe(false);
  });

  it('measures time to first chunk on the injected clock and records it for routing', async () => {
    const clock = new ManualClock();
    const a = gated('a', 'x');
    const run = fakeRun([a], { clock });
    const stream = routedStream(run);
    const pending = collect(stream);
    await new Promise((r) => setImmediate(r));
    clock.advance(120);
    a.release();
    await pending;
    const result = await stream.result;
    expect(result.timeToFirstChunkMs).toBe(120);
    expect(result.attempts[0]!.timeToFirstChunkMs).toBe(120);
    expect(run.tracker.ewma(a.key)).toBe(120);
  });

  it("uses the route's ewmaDecayMs for the sample's EWMA weight", async () => {
    const clock = new ManualClock();
    const a = gated('a', 'x');
    // The tracker's own decay time is huge: only the route's 1000 ms can give the sample weight.
    const run = fakeRun([a], { clock, tracker: new LatencyTracker({ decayMs: 1e9 }) });
    run.ewmaDecayMs = 1000;
    run.tracker.recordSuccess(a.key, 200, 0);
    clock.advance(900);
    const pending = collect(routedStream(run));
    await new Promise((r) => setImmediate(r));
    clock.advance(100);
    a.release();
    await pending;
    const w = Math.exp(-1);
    expect(run.tracker.ewma(a.key)).toBeCloseTo(200 * w + 100 * (1 - w), 10);
  });

  it('breaking out of the loop aborts the provider at once (barge-in) and resolves the result', async () => {
    let signal: AbortSource | undefined;
    let closed = false;
    const a = candidate<ChatEvent>('a', async function* (attempt) {
      signal = attempt.signal;
      try {
        yield delta('one');
        yield delta('two');
        await aborted(attempt.signal);
      } finally {
        closed = true;
      }
    });
    const stream = routedStream(fakeRun([a]));
    for await (const item of stream) {
      expect(item).toEqual(delta('one'));
      break;
    }
    expect(signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.attempts[0]!.outcome).toBe('aborted');
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);
  });

  it("the caller's abort ends the stream with AbortError and runs no fallback", async () => {
    const controller = new AbortController();
    const a = candidate<ChatEvent>('a', async function* (attempt) {
      yield delta('one');
      await aborted(attempt.signal);
      throw new AbortError();
    });
    const b = answering('b');
    const stream = routedStream(fakeRun([a, b], { signal: controller.signal }));
    const items: ChatEvent[] = [];
    let error: unknown;
    try {
      for await (const item of stream) {
        items.push(item);
        controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(items).toEqual([delta('one')]);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as Error).name).toBe('AbortError');
    expect(b.starts).toBe(0);
    await expect(stream.result).rejects.toBe(error);
  });

  it('C32: an empty request contacts no provider and changes no score', async () => {
    const a = answering('a', 'never');
    const run = fakeRun([a], { isEmpty: async () => true });
    const stream = routedStream(run);
    const { items, error } = await collect(stream);
    expect(items).toEqual([]);
    expect(error).toBeUndefined();
    expect(a.starts).toBe(0);
    expect(run.tracker.snapshot(a.key)).toMatchObject({ samples: 0, errors: 0, inFlight: 0 });
    expect((await stream.result).attempts).toEqual([]);
  });

  it('can be iterated only once', async () => {
    const stream = routedStream(fakeRun<ChatEvent>([]));
    stream[Symbol.asyncIterator]();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(
      "Invalid request field 'stream': this RoutedStream was already iterated; a stream can be iterated only once",
    );
  });

  it('throws the ConfigError it was given when no provider is a candidate', async () => {
    const reason = new ConfigError([
      { path: ['providers', 'a', 'chat'], message: "no model 'x' in its chat.models" },
    ]);
    const { error } = await collect(routedStream(fakeRun<ChatEvent>([], { noCandidate: reason })));
    expect(error).toBe(reason);
  });
});

describe('cold starts', () => {
  const idleThen = async (idleMs: number) => {
    const clock = new ManualClock();
    const a = gated('a', 'x');
    // A long decay time, so the old score keeps its weight and the rule shows.
    const run = fakeRun([a], { clock, tracker: new LatencyTracker({ decayMs: 1e9 }) });
    // One slow sample already in: a second slow one in a row confirms a peak.
    run.tracker.recordSuccess(a.key, 100, 0);
    run.tracker.recordSuccess(a.key, 2500, 0);
    clock.advance(idleMs);
    const pending = collect(routedStream(run));
    await new Promise((r) => setImmediate(r));
    clock.advance(2000);
    a.release();
    await pending;
    return { score: run.tracker.score(a.key)!, ewma: run.tracker.ewma(a.key)! };
  };

  it('takes the first call after 5 minutes idle as a cold start: averaged in, not taken as a peak', async () => {
    const { score, ewma } = await idleThen(6 * 60_000);
    // EWMA of 100 and 2500 (at 0 ms apart: weight 0), then the cold 2000 at a weight of ~0.
    const w = Math.exp(-(6 * 60_000 + 2000) / 1e9);
    expect(ewma).toBeCloseTo(100 * w + 2000 * (1 - w), 6);
    expect(score).toBe(ewma);
  });

  it('takes a slow call after a short idle as the second slow sample of a peak', async () => {
    expect((await idleThen(60_000)).score).toBe(2000);
  });
});

describe("the attempt loop with positions (TTS sentences): a provider that failed goes to the back of the call's order", () => {
  /** Four sentences; `position` counts those delivered. A candidate speaks from `position` on. */
  function sentences(failAt: Record<string, number[]>) {
    let position = 0;
    const started: string[] = [];
    const healthOf = (open: boolean): CandidateHealth => ({
      allows: () => !open,
      tryAcquire: () => !open,
      recordSuccess() {},
      recordFailure() {},
      release() {},
    });
    const make = (provider: string, open = false): RouteCandidate<string> => ({
      provider,
      key: LatencyTracker.key(provider, 'tts', 'v'),
      model: 'v',
      firstChunkMs: 0,
      deadlines: {},
      health: healthOf(open),
      start() {
        started.push(`${provider} @${position}`);
        return (async function* () {
          while (position < 4) {
            const i = position;
            yield `${provider}:s${i}a`;
            const fails = failAt[provider];
            if (fails?.[0] === i) {
              fails.shift();
              throw new ProviderError('reset', { provider, retryable: true });
            }
            yield `${provider}:s${i}b`;
            position = i + 1;
          }
        })();
      },
    });
    return { make, started, position: () => position };
  }

  it('a failure mid-sentence: the next healthy provider keeps the rest of the call; the failed one is not asked again', async () => {
    const s = sentences({ a: [1] });
    const run = fakeRun([s.make('a'), s.make('c', true), s.make('b')], {
      capability: 'tts',
      resumable: true,
      position: s.position,
    });
    const stream = routedStream(run);
    const { items, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual(['a:s0a', 'a:s0b', 'a:s1a', 'b:s1a', 'b:s1b', 'b:s2a', 'b:s2b', 'b:s3a', 'b:s3b']);
    // c's breaker is open: never started. b takes sentence 1 over and keeps the call.
    expect(s.started).toEqual(['a @0', 'b @1']);
    expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it('the replacement fails later: the first one, at the back since its failure, is asked again where the call stands', async () => {
    const s = sentences({ a: [0], b: [2] });
    const run = fakeRun([s.make('a'), s.make('b')], {
      capability: 'tts',
      resumable: true,
      position: s.position,
    });
    const stream = routedStream(run);
    const { items, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([
      'a:s0a',
      'b:s0a',
      'b:s0b',
      'b:s1a',
      'b:s1b',
      'b:s2a',
      'a:s2a',
      'a:s2b',
      'a:s3a',
      'a:s3b',
    ]);
    expect(s.started).toEqual(['a @0', 'b @0', 'a @2']);
    expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
      ['a', 'success'],
    ]);
  });

  it('three providers: each one that fails goes behind those that have not failed since', async () => {
    const s = sentences({ a: [0], b: [1] });
    const run = fakeRun([s.make('a'), s.make('b'), s.make('c')], {
      capability: 'tts',
      resumable: true,
      position: s.position,
    });
    const { items, error } = await collect(routedStream(run));
    expect(error).toBeUndefined();
    expect(items).toEqual([
      'a:s0a',
      'b:s0a',
      'b:s0b',
      'b:s1a',
      'c:s1a',
      'c:s1b',
      'c:s2a',
      'c:s2b',
      'c:s3a',
      'c:s3b',
    ]);
    // After b's failure the call's order is c, a, b: c takes over, not a (which failed first).
    expect(s.started).toEqual(['a @0', 'b @0', 'c @1']);
  });

  it('without positions (chat, STT) a provider that failed after output is not tried again', async () => {
    const s = sentences({ a: [1] });
    const run = fakeRun([s.make('a'), s.make('b')], { capability: 'tts', resumable: true });
    const { items, error } = await collect(routedStream(run));
    expect(error).toBeUndefined();
    expect(items).toEqual(['a:s0a', 'a:s0b', 'a:s1a', 'b:s1a', 'b:s1b', 'b:s2a', 'b:s2b', 'b:s3a', 'b:s3b']);
    expect(s.started).toEqual(['a @0', 'b @1']);
  });
});
