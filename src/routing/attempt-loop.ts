import { AbortError } from '../errors/abort-error.js';
import { AllProvidersFailedError } from '../errors/all-providers-failed-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import type { Settle as SettleOf } from '../internal/once-stream.js';
import { isRouterStall } from '../internal/stall.js';
import type { AttemptContext } from '../providers/types.js';
import type { Attempt, RouteResult } from '../types/route-result.js';
import { isEmptyAnswer, isReusedSocketReset, midStreamError, normalize } from './attempt-errors.js';
import type { CallScope } from './call-scope.js';
import { CallEvents } from './call-span.js';
import { CandidateOrder } from './candidate-order.js';
import { canFallBack } from './classify.js';
import { isColdStart } from './cold-start.js';
import type { RouterEventBase } from './events.js';
import { breakerFailureOf } from './health/index.js';
import { ItemHandoff } from './item-handoff.js';
import type { RouteCandidate, RouteRun } from './route-run.js';
import { withDeadline } from './stall-deadline.js';

type Settle = SettleOf<RouteResult>;

/** The clock of an attempt that starts it at once: already started (one promise for every call). */
const STARTED: Promise<void> = Promise.resolve();

/** One attempt in progress. */
interface Running<T> {
  c: RouteCandidate<T>;
  /**
   * The attempt's own abort scope, when it may have to stop while the call goes on (another
   * candidate may follow it or race it). Absent for a call's only candidate: the attempt then
   * runs on the call's signal, and stopping it alone is deferred to the end of the call.
   */
  abort: AbortController | undefined;
  iterator: AsyncIterator<T> | undefined;
  attempt: Attempt;
  /** 1-based number of the attempt within the call (its events' `attempt`). */
  number: number;
  t0: number;
  first: Promise<FirstOutcome<T>>;
  onCallAbort: (() => void) | undefined;
  acquired: boolean;
  ended: boolean;
  /** First call ever, or after a long idle: its time to first chunk may include a cold start. */
  cold: false | 'first' | 'idle';
  /** Index of the candidate in `run.candidates`. */
  index: number;
  /** Stands in for an earlier candidate that failed at `position` (see {@link RouteCandidate.start}). */
  standIn: boolean;
  /** The call's position when the attempt started (0 without {@link RouteRun.position}). */
  position: number;
  /** Resolves when the attempt's clock starts (`t0` set): at once, or at its `ready` (see {@link RouteCandidate.startsClock}). */
  clockStarted: Promise<void>;
  /** False until the clock started. */
  timing: boolean;
}

type FirstOutcome<T> =
  | { r: Running<T>; ok: true; result: IteratorResult<T> }
  | { r: Running<T>; ok: false; error: unknown };

/**
 * The attempt loop. Candidates are started in order; the first item of each is pulled inside
 * the loop's try block (so a lazy stream's HTTP error is seen here) under its
 * first-chunk deadline. A failure that allows fallback moves on to the next candidate without
 * the caller seeing anything. With hedging, when the running attempt has no first chunk after
 * its hedge delay, the next candidate starts beside it: the first to yield wins, the other is
 * aborted (its socket closed, its failure not charged). Once an item was yielded the call is
 * committed: a later failure ends the stream with a MidStreamError (partialOutput: true) and
 * nothing is ever yielded twice. Breaking out of the loop or aborting the signal
 * closes every running attempt at once.
 */
export async function* drive<T>(
  run: RouteRun<T>,
  settle: Settle,
  scope: CallScope,
  stopped: () => boolean,
): AsyncGenerator<ItemHandoff<T>, void, undefined> {
  const { clock, tracker } = run;
  const callStart = clock.now();
  const span = run.tracing?.startCall(`voxroute.${run.capability}`, {
    'voxroute.capability': run.capability,
    'voxroute.route': run.route,
  });
  /** The call's router events, built only when a listener or the span will see them. */
  const events = new CallEvents(run.emitter, span, run.capability, run.route);
  const baseOf = (r: Running<T>): RouterEventBase => events.base(r.c.provider, r.c.model, r.number);
  const attempts: Attempt[] = [];
  // The consumer's return() aborts the call's scope itself: a barge-in, not a failure (the
  // call settles as for a break; stopped() tells it apart).
  const callAbort = scope.controller;
  scope.open(run.signal, run.closeSignal, clock, run.deadlineMs);
  /** Aborts an attempt (its socket closed) and asks its iterator to finish, without waiting or throwing. */
  const closeAttempt = (r: Running<T>, reason: unknown = new AbortError('Attempt abandoned')) => {
    if (r.abort) {
      if (!r.abort.signal.aborted) r.abort.abort(reason);
    } else scope.stopShared(reason);
    const ret = r.iterator?.return?.();
    if (ret) ret.catch(() => {});
  };
  let committed = false;
  /** True once the call continues on another provider after output (nothing left to say is then an answer). */
  let resuming = false;
  /** The error to throw once the call itself was aborted: the budget's TimeoutError, else AbortError. */
  const callAbortError = (): VoxrouteError => scope.abortError(committed);

  let settled = false;
  const finish = (provider: string, timeToFirstChunkMs: number | undefined) => {
    settled = true;
    const durationMs = clock.now() - callStart;
    const ttfc = timeToFirstChunkMs ?? durationMs;
    span?.end({
      'voxroute.provider': provider,
      'voxroute.attempts': attempts.length,
      'voxroute.ttfc_ms': ttfc,
      'voxroute.duration_ms': durationMs,
    });
    settle.resolve({ provider, attempts, timeToFirstChunkMs: ttfc, durationMs });
  };
  const fail = (error: unknown): unknown => {
    settled = true;
    span?.end(
      { 'voxroute.attempts': attempts.length, 'voxroute.duration_ms': clock.now() - callStart },
      error,
    );
    settle.reject(error);
    return error;
  };

  const running: Running<T>[] = [];
  /** Ends an attempt's bookkeeping exactly once. */
  const end = (r: Running<T>) => {
    if (r.ended) return;
    r.ended = true;
    if (r.onCallAbort) callAbort.signal.removeEventListener('abort', r.onCallAbort);
    tracker.inFlight(r.c.key, -1);
    r.attempt.durationMs = clock.now() - r.t0;
  };
  /** Cancels an attempt that is not charged (barge-in, hedge loser, call aborted). */
  const cancel = (r: Running<T>) => {
    if (r.ended) return;
    r.attempt.outcome = 'aborted';
    const elapsed = clock.now() - r.t0;
    closeAttempt(r);
    end(r);
    if (r.attempt.timeToFirstChunkMs === undefined && r.timing)
      // The route's EWMA decay time for the tracker (absent: the tracker's own).
      tracker.recordCancelled(r.c.key, elapsed, clock.now(), { decayMs: run.ewmaDecayMs });
    if (r.acquired) r.c.health?.release();
  };

  const position = (): number => run.position?.() ?? 0;
  const order = new CandidateOrder(run.candidates, position, (i) => running.some((r) => r.index === i));
  const peekNext = () => order.peek();
  const startNext = (hedge: boolean): Running<T> | undefined => {
    const next = order.take();
    if (next === undefined) return undefined;
    const { index, standIn, position: pos } = next;
    const c = run.candidates[index]!;
    // A call's only candidate cannot be followed or raced by another: it runs on the call's signal.
    const abort = run.candidates.length > 1 ? new AbortController() : undefined;
    let onCallAbort: (() => void) | undefined;
    if (abort) {
      onCallAbort = () => abort.abort(callAbort.signal.reason);
      callAbort.signal.addEventListener('abort', onCallAbort, { once: true });
    }
    const attempt: Attempt = {
      provider: c.provider,
      outcome: 'failed',
      startedAtMs: clock.now() - callStart,
    };
    if (c.model !== undefined) attempt.model = c.model;
    attempts.push(attempt);
    const name = hedge ? 'hedge' : 'attempt';
    if (events.wants(name))
      events.emit(name, {
        ...events.base(c.provider, c.model, attempts.length),
        elapsedMs: attempt.startedAtMs,
      });
    tracker.inFlight(c.key, 1);
    const r: Running<T> = {
      c,
      abort,
      iterator: undefined,
      attempt,
      number: attempts.length,
      t0: clock.now(),
      cold: isColdStart(tracker.lastTriedAt(c.key), clock.now()),
      first: undefined as unknown as Promise<FirstOutcome<T>>,
      onCallAbort,
      acquired: c.health?.tryAcquire() ?? false,
      ended: false,
      index,
      standIn,
      position: pos,
      clockStarted: STARTED,
      timing: !c.startsClock,
    };
    r.first = firstOutcome(r);
    running.push(r);
    return r;
  };
  /**
   * Starts the attempt and pulls its first item under the first-chunk deadline: the item, or
   * the attempt's failure, as an outcome of the wait loop (never rejects).
   */
  const firstOutcome = async (r: Running<T>): Promise<FirstOutcome<T>> => {
    const { c } = r;
    try {
      let ready: (() => void) | undefined;
      if (c.startsClock)
        r.clockStarted = new Promise<void>((resolve) => {
          ready = () => {
            if (r.timing) return;
            r.timing = true;
            r.t0 = clock.now();
            resolve();
          };
        });
      const context: AttemptContext = {
        signal: r.abort ? r.abort.signal : callAbort.signal,
        deadlines: c.deadlines,
        transport: run.transport,
      };
      // RouterOptions.WebSocket reaches WebSocket adapters (e.g. so msw's ws API can intercept).
      if (run.webSocket) context.webSocket = run.webSocket;
      r.iterator = c.start(context, r.standIn, ready)[Symbol.asyncIterator]();
      const firstItem = r.iterator.next();
      if (c.startsClock) {
        // The provider can answer only once it has had enough input: the clock starts there.
        firstItem.catch(() => {});
        await Promise.race([r.clockStarted, firstItem]);
        // Audio before the first clause end was handed over: the clock stays at the request's start.
        r.timing = true;
      } else if (c.inputEnded) {
        // The provider answers only after the whole input: start its clock when the input ends.
        firstItem.catch(() => {});
        await Promise.race([c.inputEnded, firstItem]);
        r.t0 = clock.now();
      }
      const first = await withDeadline(firstItem, c.firstChunkMs, clock, () => {
        const timeout = new TimeoutError('first-chunk', c.firstChunkMs, { provider: c.provider });
        if (r.abort) r.abort.abort(timeout);
        else scope.stopShared(timeout);
        return timeout;
      });
      // An answer with nothing in it is a failure, never a silent success (C39); after a
      // mid-stream switch, the next provider may rightly have nothing left to add.
      if (!resuming && isEmptyAnswer(run.capability, first)) {
        throw new ProtocolError(`Provider '${c.provider}' gave an empty answer`, { provider: c.provider });
      }
      return { r, ok: true, result: first };
    } catch (error) {
      return { r, ok: false, error };
    }
  };

  try {
    if (callAbort.signal.aborted) throw fail(callAbortError());
    if (run.isEmpty) {
      let empty: boolean;
      try {
        // Known at once for a text given whole: no turn of the event loop before the first request.
        const known = run.isEmpty(callAbort.signal);
        if (typeof known === 'boolean') empty = known;
        else {
          // The wait for the first input (a whole sample, a sentence of streamed text) ends with
          // the call: its deadline (TimeoutError 'total'), the caller's abort, router.close() or
          // the consumer's return(), even while the caller's source never yields.
          known.catch(() => {});
          const outcome = await Promise.race([known, scope.aborted]);
          if (outcome === 'aborted') {
            if (stopped()) return;
            throw fail(callAbortError());
          }
          empty = outcome;
        }
      } catch (error) {
        // The input failed or was stopped (barge-in while the caller's text source waits).
        if (callAbort.signal.aborted && stopped()) return;
        throw fail(callAbort.signal.aborted ? callAbortError() : error);
      }
      if (empty) {
        finish('', 0);
        return;
      }
    }
    if (run.candidates.length === 0) {
      throw fail(
        run.noCandidate ?? new AllProvidersFailedError(run.capability, [], 'the route has no provider'),
      );
    }

    /** Settles when the call is aborted (every abort goes through the scope: no listener). */
    const aborted = scope.aborted;
    let partialText = '';
    const join = (sofar: string, next: string | undefined): string =>
      next === undefined || next === '' ? sofar : run.joinText ? run.joinText(sofar, next) : sofar + next;
    /** The bookkeeping of each item delivered after an attempt's first (none for tts). */
    const textOf = run.textOf;
    const onDelivered = run.onDelivered;
    const deliver =
      textOf || onDelivered
        ? (item: T) => {
            if (textOf) partialText = join(partialText, textOf(item));
            onDelivered?.(item);
          }
        : undefined;
    let callTtfc: number | undefined;
    let midStreamCause: VoxrouteError | undefined;
    let midStreamProvider = '';
    for (;;) {
      let winner: Running<T> | undefined;
      let first: IteratorResult<T> | undefined;
      let hedged = false;
      while (!winner) {
        if (running.length === 0) {
          if (attempts.length > 0) run.hedgeBudget?.charge?.();
          if (!startNext(false)) break;
        }
        // A hedge: one attempt running, more candidates left, none hedged yet in this call.
        const lone = running.length === 1 ? running[0]! : undefined;
        let hedgeHandle: unknown;
        let hedgeOff = false;
        const hedgeFires =
          lone && !hedged && run.hedgeBudget && lone.c.hedgeAfterMs !== undefined && peekNext() !== undefined
            ? new Promise<'hedge'>((resolve) => {
                // The delay counts from the attempt's clock (e.g. its first clause end handed over).
                void lone.clockStarted.then(() => {
                  if (hedgeOff) return;
                  const wait = Math.max(0, lone.t0 + (lone.c.hedgeAfterMs ?? 0) - clock.now());
                  hedgeHandle = clock.setTimeout(() => resolve('hedge'), wait);
                });
              })
            : undefined;
        const racers: Promise<FirstOutcome<T> | 'hedge' | 'aborted'>[] = [];
        for (const r of running) racers.push(r.first);
        if (hedgeFires) racers.push(hedgeFires);
        racers.push(aborted);
        const outcome = await Promise.race(racers);
        hedgeOff = true;
        if (hedgeHandle !== undefined) clock.clearTimeout(hedgeHandle);
        if (outcome === 'hedge') {
          hedged = true;
          if (run.hedgeBudget!.take()) startNext(true);
          continue;
        }
        if (outcome === 'aborted' || callAbort.signal.aborted) {
          for (const r of [...running]) cancel(r);
          if (stopped()) return;
          throw fail(callAbortError());
        }
        const r = outcome.r;
        running.splice(running.indexOf(r), 1);
        if (!outcome.ok) order.failed(r.index);
        if (outcome.ok) {
          winner = r;
          first = outcome.result;
          break;
        }
        closeAttempt(r);
        end(r);
        const callerError = run.callerError?.();
        if (callerError) {
          // The caller's input failed, not the provider: nothing is charged, the call ends.
          r.attempt.outcome = 'aborted';
          if (r.acquired) r.c.health?.release();
          for (const other of [...running]) cancel(other);
          running.length = 0;
          throw fail(callerError);
        }
        const error = normalize(outcome.error, r.c.provider, run.redact);
        r.attempt.error = error;
        // A deadline that passed while the event loop was blocked is not the provider's failure.
        const stall = isRouterStall(error);
        // Only a failure that is the provider's is recorded against it: not the caller's or the
        // config's error (e.g. a header the HTTP client refused to send), nor a request the
        // provider called bad (400, 413, 422; the breaker counts it as cancelled too).
        if (!stall && canFallBack(error)) tracker.recordFailure(r.c.key, clock.now(), r.attempt.durationMs);
        r.c.health?.recordFailure(
          breakerFailureOf(error, { reusedSocketReset: isReusedSocketReset(error), routerStall: stall }),
        );
        if (events.wants('error'))
          events.emit('error', {
            ...baseOf(r),
            error,
            partialOutput: false,
            elapsedMs: clock.now() - callStart,
          });
        if (!canFallBack(error)) {
          for (const other of [...running]) cancel(other);
          running.length = 0;
          throw fail(error);
        }
        // A hedged race lost one of its two attempts: the next candidate takes its place at once,
        // rather than leaving the call to wait on the slow attempt alone.
        const slow = running.length === 1 ? running[0]! : undefined;
        const replace =
          hedged &&
          slow !== undefined &&
          slow.c.hedgeAfterMs !== undefined &&
          clock.now() - slow.t0 >= slow.c.hedgeAfterMs &&
          peekNext() !== undefined;
        const peeked = peekNext();
        const queued = peeked === undefined ? undefined : run.candidates[peeked];
        const next = replace ? queued : (running[0]?.c ?? queued);
        if (next && events.wants('fallback'))
          events.emit('fallback', {
            ...baseOf(r),
            error,
            next: next.provider,
            elapsedMs: clock.now() - callStart,
          });
        if (replace) {
          run.hedgeBudget?.charge?.();
          startNext(false);
        }
      }
      if (!winner || !first) {
        if (!midStreamCause) throw fail(new AllProvidersFailedError(run.capability, attempts));
        // Resuming after a mid-stream failure found no provider to continue on.
        throw fail(midStreamError(midStreamCause, midStreamProvider, partialText));
      }

      // Committed to the winner: any other running attempt lost the hedge.
      for (const loser of [...running]) cancel(loser);
      running.length = 0;
      running.push(winner);
      const c = winner.c;
      try {
        if (!first.done) {
          const now = clock.now();
          const ttfc = now - winner.t0;
          winner.attempt.timeToFirstChunkMs = ttfc;
          callTtfc ??= now - callStart;
          tracker.recordSuccess(c.key, ttfc, now, {
            decayMs: run.ewmaDecayMs,
            coldStart: winner.cold !== false,
            firstCall: winner.cold === 'first',
          });
          if (events.wants('first-chunk'))
            events.emit('first-chunk', {
              ...baseOf(winner),
              timeToFirstChunkMs: ttfc,
              elapsedMs: now - callStart,
            });
          committed = true;
          const value = midStreamCause && run.markResumed ? run.markResumed(first.value) : first.value;
          // The first item and the winner's other items go to the caller from the call's
          // iterator itself (see ItemHandoff and routed-stream.ts), which also calls `deliver`
          // on each (one call site for every capability's bookkeeping, none in this loop), raced
          // with the call's abort there: the loop resumes here when they end; their failure, or
          // AbortError once the call was aborted, is thrown here.
          yield new ItemHandoff(value, winner.iterator!, deliver);
        }
        winner.attempt.outcome = 'success';
        end(winner);
        running.length = 0;
        c.health?.recordSuccess();
        // A stand-in took over where a provider failed; past that point the route's order applies again.
        if (winner.standIn && run.unfinished?.() && position() !== winner.position) continue;
        finish(c.provider, callTtfc);
        return;
      } catch (raw) {
        closeAttempt(winner);
        end(winner);
        running.length = 0;
        if (callAbort.signal.aborted) {
          winner.attempt.outcome = 'aborted';
          if (stopped()) return;
          throw fail(callAbortError());
        }
        const callerError = run.callerError?.();
        if (callerError) {
          winner.attempt.outcome = 'aborted';
          if (winner.acquired) c.health?.release();
          throw fail(callerError);
        }
        const cause = normalize(raw, c.provider, run.redact);
        winner.attempt.error = cause;
        const stall = isRouterStall(cause);
        if (!stall && canFallBack(cause)) tracker.recordFailure(c.key, clock.now());
        c.health?.recordFailure(
          breakerFailureOf(cause, { reusedSocketReset: isReusedSocketReset(cause), routerStall: stall }),
        );
        if (events.wants('error'))
          events.emit('error', {
            ...baseOf(winner),
            error: cause,
            partialOutput: true,
            elapsedMs: clock.now() - callStart,
          });
        order.failed(winner.index);
        if (run.resumable && run.position) order.replan();
        const peeked = run.resumable && canFallBack(cause) ? peekNext() : undefined;
        const next = peeked === undefined ? undefined : run.candidates[peeked];
        if (next) {
          // Continue the stream on the next provider from where this one stopped (the capability's
          // glue keeps the position: next sentence, audio since the last final, partial reply).
          if (events.wants('fallback'))
            events.emit('fallback', {
              ...baseOf(winner),
              error: cause,
              next: next.provider,
              elapsedMs: clock.now() - callStart,
            });
          midStreamCause = cause;
          midStreamProvider = c.provider;
          resuming = true;
          continue;
        }
        throw fail(midStreamError(cause, c.provider, partialText));
      }
    }
  } finally {
    scope.dispose();
    run.release?.();
    // The consumer stopped iterating (break / return()): barge-in. Close the provider at once.
    for (const r of running) cancel(r);
    // The call's only attempt was stopped: close it now, with the reason it was stopped for.
    scope.closeShared();
    if (!settled) {
      const last = attempts[attempts.length - 1];
      finish(last?.provider ?? '', undefined);
    }
  }
}
