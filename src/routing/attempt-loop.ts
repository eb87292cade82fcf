import { AbortError } from '../errors/abort-error.js';
import { AllProvidersFailedError } from '../errors/all-providers-failed-error.js';
import { MidStreamError } from '../errors/mid-stream-error.js';
import { ProviderError } from '../errors/provider-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { Clock } from '../internal/clock.js';
import type { AttemptContext } from '../providers/types.js';
import type { Deadlines, HttpTransport } from '../transport/types.js';
import type { Attempt, Capability, RoutedStream, RouteResult } from '../types/route-result.js';
import { canFallBack } from './classify.js';
import type { RouterEmitter, RouterEventBase } from './events.js';
import type { LatencyTracker } from './latency-tracker.js';

/** One provider a call may be served by, with everything the loop needs to start it. */
export interface RouteCandidate<T> {
  provider: string;
  /** Provider-side model or voice id. */
  model?: string;
  /** Key of the (provider, capability, model) in the latency tracker. */
  key: string;
  /** First-chunk deadline of this attempt in ms (0: none). */
  firstChunkMs: number;
  /** Deadlines handed to the adapter's transport. */
  deadlines: Deadlines;
  /** Starts the attempt: an iterable of output items, already in the caller's shape. */
  start(attempt: AttemptContext): AsyncIterable<T>;
  /**
   * For providers that answer only once all input is in (non-streaming STT): resolves when the
   * input has ended. Time to first chunk and the first-chunk deadline then count from there,
   * so a long utterance is not held against the provider.
   */
  inputEnded?: Promise<void>;
}

/** A call to route: ordered candidates and the router's shared parts. */
export interface RouteRun<T> {
  capability: Capability;
  route: string;
  /** Candidates in the order to try them. */
  candidates: RouteCandidate<T>[];
  /** Why there is no candidate, when `candidates` is empty. */
  noCandidateReason?: string;
  /**
   * Resolves true when the request has nothing to do (e.g. whitespace-only text): the call then
   * yields nothing, contacts no provider and changes no score (C32).
   */
  isEmpty?: () => Promise<boolean>;
  signal: AbortSignal | undefined;
  closeSignal: AbortSignal;
  transport: HttpTransport;
  clock: Clock;
  tracker: LatencyTracker;
  emitter: RouterEmitter;
  /** Text an item adds to the output (chat deltas, final transcripts), kept for MidStreamError. */
  textOf?: (item: T) => string | undefined;
}

interface Settle {
  resolve(result: RouteResult): void;
  reject(error: unknown): void;
}

/**
 * Wraps a routed call as a {@link RoutedStream}. Nothing starts until the caller iterates.
 * The stream can be iterated once; `result` never causes an unhandled rejection by itself.
 */
export function routedStream<T>(run: RouteRun<T>): RoutedStream<T> {
  let settle: Settle | undefined;
  const result = new Promise<RouteResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(() => {});
  let used = false;
  return {
    result,
    [Symbol.asyncIterator]() {
      if (used) throw new VoxrouteError('A RoutedStream can be iterated only once');
      used = true;
      return drive(run, settle!)[Symbol.asyncIterator]();
    },
  };
}

/**
 * The attempt loop. For each candidate in order: start it, pull its first item inside the
 * try block (so a lazy stream's HTTP error is seen here, case C30) under the first-chunk
 * deadline, and on a failure that allows fallback move on to the next candidate without the
 * caller seeing anything. Once an item was yielded the call is committed to that provider:
 * a later failure ends the stream with a MidStreamError (partialOutput: true) and nothing is
 * ever yielded twice (C28, C29). Breaking out of the loop or aborting the signal closes the
 * provider's connection at once.
 */
async function* drive<T>(run: RouteRun<T>, settle: Settle): AsyncGenerator<T, void, undefined> {
  const { clock, tracker, emitter } = run;
  const callStart = clock.now();
  const attempts: Attempt[] = [];
  const callAbort = new AbortController();
  const onAbort = () => callAbort.abort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  run.closeSignal.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted || run.closeSignal.aborted) callAbort.abort();
  const abortError = () =>
    new AbortError(run.closeSignal.aborted ? 'The router was closed' : 'The call was aborted', {
      cause: run.signal?.reason,
    });

  let settled = false;
  const finish = (provider: string, timeToFirstChunkMs: number | undefined) => {
    settled = true;
    const durationMs = clock.now() - callStart;
    settle.resolve({ provider, attempts, timeToFirstChunkMs: timeToFirstChunkMs ?? durationMs, durationMs });
  };
  const fail = (error: unknown): unknown => {
    settled = true;
    settle.reject(error);
    return error;
  };

  // The attempt in progress, so a consumer that breaks out can close it.
  let live:
    | { abort: AbortController; iterator: AsyncIterator<T> | undefined; attempt: Attempt; key: string }
    | undefined;

  try {
    if (callAbort.signal.aborted) throw fail(abortError());
    if (run.isEmpty && (await run.isEmpty())) {
      finish('', 0);
      return;
    }
    if (run.candidates.length === 0) {
      throw fail(new AllProvidersFailedError(run.capability, [], run.noCandidateReason));
    }

    for (let i = 0; i < run.candidates.length; i++) {
      const c = run.candidates[i]!;
      const attemptAbort = new AbortController();
      const onCallAbort = () => attemptAbort.abort(callAbort.signal.reason);
      callAbort.signal.addEventListener('abort', onCallAbort, { once: true });
      const attempt: Attempt = {
        provider: c.provider,
        outcome: 'failed',
        startedAtMs: clock.now() - callStart,
      };
      if (c.model !== undefined) attempt.model = c.model;
      attempts.push(attempt);
      const base: RouterEventBase = {
        capability: run.capability,
        route: run.route,
        provider: c.provider,
        attempt: i + 1,
      };
      if (c.model !== undefined) base.model = c.model;
      emitter.emit('attempt', base);
      tracker.inFlight(c.key, 1);
      let t0 = clock.now();
      live = { abort: attemptAbort, iterator: undefined, attempt, key: c.key };
      let first: IteratorResult<T>;
      try {
        live.iterator = c
          .start({ signal: attemptAbort.signal, deadlines: c.deadlines, transport: run.transport })
          [Symbol.asyncIterator]();
        const firstItem = live.iterator.next();
        if (c.inputEnded) {
          // The provider answers only after the whole input: start its clock when the input ends.
          firstItem.catch(() => {});
          await Promise.race([c.inputEnded, firstItem]);
          t0 = clock.now();
        }
        first = await withDeadline(firstItem, c.firstChunkMs, clock, () => {
          const timeout = new TimeoutError('first-chunk', c.firstChunkMs, { provider: c.provider });
          attemptAbort.abort(timeout);
          return timeout;
        });
      } catch (raw) {
        closeAttempt(live);
        live = undefined;
        callAbort.signal.removeEventListener('abort', onCallAbort);
        tracker.inFlight(c.key, -1);
        attempt.durationMs = clock.now() - t0;
        if (callAbort.signal.aborted) {
          attempt.outcome = 'aborted';
          throw fail(abortError());
        }
        const error = normalize(raw, c.provider);
        attempt.error = error;
        tracker.recordFailure(c.key, clock.now());
        emitter.emit('error', { ...base, error, partialOutput: false });
        if (!canFallBack(error)) throw fail(error);
        const next = run.candidates[i + 1];
        if (next) emitter.emit('fallback', { ...base, error, next: next.provider });
        continue;
      }

      // Committed to this provider.
      let partialText = '';
      let callTtfc: number | undefined;
      try {
        if (!first.done) {
          const now = clock.now();
          const ttfc = now - t0;
          attempt.timeToFirstChunkMs = ttfc;
          callTtfc = now - callStart;
          tracker.recordSuccess(c.key, ttfc, now);
          emitter.emit('first-chunk', { ...base, timeToFirstChunkMs: ttfc });
          if (run.textOf) partialText += run.textOf(first.value) ?? '';
          yield first.value;
          const iterator = live.iterator!;
          for (;;) {
            const r = await iterator.next();
            if (r.done) break;
            if (run.textOf) partialText += run.textOf(r.value) ?? '';
            yield r.value;
          }
        }
        attempt.outcome = 'success';
        attempt.durationMs = clock.now() - t0;
        live = undefined;
        finish(c.provider, callTtfc);
        return;
      } catch (raw) {
        if (live) closeAttempt(live);
        live = undefined;
        attempt.durationMs = clock.now() - t0;
        if (callAbort.signal.aborted) {
          attempt.outcome = 'aborted';
          throw fail(abortError());
        }
        const cause = normalize(raw, c.provider);
        attempt.error = cause;
        tracker.recordFailure(c.key, clock.now());
        emitter.emit('error', { ...base, error: cause, partialOutput: true });
        throw fail(
          new MidStreamError(`Provider '${c.provider}' failed after output had started: ${cause.message}`, {
            cause,
            provider: c.provider,
            retryable: cause.retryable,
            ...(run.textOf ? { partialText } : {}),
          }),
        );
      } finally {
        callAbort.signal.removeEventListener('abort', onCallAbort);
        tracker.inFlight(c.key, -1);
      }
    }
    throw fail(new AllProvidersFailedError(run.capability, attempts));
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
    run.closeSignal.removeEventListener('abort', onAbort);
    if (!settled) {
      // The consumer stopped iterating (break / return()): barge-in. Close the provider at once.
      if (live) {
        live.attempt.outcome = 'aborted';
        live.attempt.durationMs = clock.now() - callStart - live.attempt.startedAtMs;
        closeAttempt(live);
      }
      const last = attempts[attempts.length - 1];
      finish(last?.provider ?? '', undefined);
    }
  }
}

/** Aborts an attempt and asks its iterator to finish, without waiting and without throwing. */
function closeAttempt(live: { abort: AbortController; iterator: AsyncIterator<unknown> | undefined }): void {
  if (!live.abort.signal.aborted) live.abort.abort(new AbortError('Attempt abandoned'));
  const ret = live.iterator?.return?.();
  if (ret) ret.catch(() => {});
}

/** Races `promise` against a deadline of `ms` (0: none); `onTimeout` builds the rejection. */
function withDeadline<V>(promise: Promise<V>, ms: number, clock: Clock, onTimeout: () => Error): Promise<V> {
  if (!ms) return promise;
  return new Promise<V>((resolve, reject) => {
    const handle = clock.setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(handle);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(handle);
        reject(error);
      },
    );
  });
}

/** Any error an adapter threw, as a VoxrouteError naming the provider. */
function normalize(error: unknown, provider: string): VoxrouteError {
  if (VoxrouteError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`Provider '${provider}' failed: ${message}`, {
    provider,
    retryable: true,
    cause: error,
  });
}
