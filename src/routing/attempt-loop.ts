import { AllProvidersFailedError } from '../errors/all-providers-failed-error.js';
import { RequestError } from '../errors/request-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import type { Settle as SettleOf } from '../internal/once-stream.js';
import { isRouterStall } from '../internal/stall.js';
import type { AttemptContext } from '../providers/types.js';
import type { Attempt, RouteResult } from '../types/route-result.js';
import { AttemptCall, type FirstOutcome, type Running, waitedOf } from './attempt-call.js';
import { isReusedSocketReset, midStreamError, normalize } from './attempt-errors.js';
import type { CallScope } from './call-scope.js';
import type { CandidateOrder } from './candidate-order.js';
import { canFallBack } from './classify.js';
import { breakerFailureOf } from './health/index.js';
import { ItemHandoff } from './item-handoff.js';
import type { RouteRun } from './route-run.js';

type Settle = SettleOf<RouteResult>;

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
  // The call's state and its attempts' bookkeeping: one object per call (see AttemptCall).
  const call = new AttemptCall(run, settle, scope);
  const { attempts, running, order, events, callAbort, callStart } = call;
  scope.open(run.signal, run.closeSignal, clock, run.deadlineMs, run.deadlineSetting);
  /** The call's time to its first chunk, once the caller has one (also read when it breaks out). */
  let callTtfc: number | undefined;
  try {
    if (callAbort.aborted) throw call.fail(call.callAbortError());
    // An unknown route, voice or model fails the call before its input is read: a text with
    // nothing to speak does not hide a voice no provider maps.
    if (run.noCandidate) throw call.fail(run.noCandidate);
    if (run.isEmpty) {
      let empty: boolean;
      try {
        // Known at once for a text given whole: no turn of the event loop before the first request.
        const known = run.isEmpty(callAbort);
        if (typeof known === 'boolean') empty = known;
        else {
          // The wait for the first input (a whole sample, a sentence of streamed text) ends with
          // the call: its deadline (TimeoutError 'total'), the caller's abort, router.close() or
          // the consumer's return(), even while the caller's source never yields.
          known.catch(() => {});
          const outcome = await Promise.race([known, scope.aborted]);
          if (outcome === 'aborted') {
            if (stopped()) return;
            throw call.fail(call.callAbortError());
          }
          empty = outcome;
        }
      } catch (error) {
        // The input failed or was stopped (barge-in while the caller's text source waits).
        if (callAbort.aborted && stopped()) return;
        throw call.fail(callAbort.aborted ? call.callAbortError() : error);
      }
      if (empty) {
        // No chunk: the call's time to first chunk is its duration (RouteResult.timeToFirstChunkMs).
        call.finish('', undefined);
        return;
      }
    }
    if (run.candidates.length === 0) {
      throw call.fail(
        run.noCandidate ?? new AllProvidersFailedError(run.capability, [], 'the route has no provider'),
      );
    }

    /** Settles when the call is aborted (every abort goes through the scope: no listener). */
    const aborted = scope.aborted;
    /** The bookkeeping of each item delivered after an attempt's first (none for tts). */
    const textOf = run.textOf;
    const onDelivered = run.onDelivered;
    const deliver =
      textOf || onDelivered
        ? (item: T) => {
            if (textOf) call.partialText = joinText(run, call.partialText, textOf(item));
            onDelivered?.(item);
          }
        : undefined;
    let midStreamCause: VoxrouteError | undefined;
    let midStreamProvider = '';
    /** The attempt that failed after output, while the call resumes elsewhere. */
    let midStreamAttempt: Attempt | undefined;
    /** The context of the attempt that failed after output, while the call resumes elsewhere. */
    let midStreamContext: AttemptContext | undefined;
    for (;;) {
      let winner: Running<T> | undefined;
      let first: IteratorResult<T> | undefined;
      let hedged = false;
      /**
       * The attempt left alone when the other attempt of a hedged race failed before it was
       * itself slow (it had run less than its hedge delay): if it has no first chunk at its
       * hedge delay, the next candidate starts beside it then, as a fallback.
       */
      let survivor: Running<T> | undefined;
      /**
       * An attempt's error that allows no fallback (the provider called the request bad: 400,
       * 413, 422), while the other attempt of a hedged race still ran: that one may still
       * answer, and no other candidate is started; the call ends with this error if it fails too.
       */
      let requestError: VoxrouteError | undefined;
      while (!winner) {
        if (running.length === 0) {
          // After output, a takeover's request error still ends the call as one cut after output.
          if (requestError)
            throw call.fail(
              midStreamCause
                ? cutAfterOutput(
                    run,
                    call,
                    midStreamCause,
                    midStreamProvider,
                    midStreamContext,
                    midStreamAttempt!,
                  )
                : requestError,
            );
          if (attempts.length > 0) run.hedgeBudget?.charge?.();
          if (!call.startNext(false)) break;
        }
        // A hedge: one attempt running, more candidates left, none hedged yet in this call.
        const lone = running.length === 1 ? running[0]! : undefined;
        let hedgeHandle: unknown;
        let hedgeOff = false;
        const replaces = lone !== undefined && lone === survivor;
        const hedgeFires =
          lone &&
          (!hedged || replaces) &&
          run.hedgeBudget &&
          lone.c.hedgeAfterMs !== undefined &&
          order.peek() !== undefined
            ? new Promise<'hedge'>((resolve) => {
                // The delay counts from the attempt's clock (e.g. its first clause end handed over).
                void lone.clockStarted.then(() => {
                  if (hedgeOff) return;
                  const wait = Math.max(0, lone.t0 + (lone.c.hedgeAfterMs ?? 0) - clock.now());
                  hedgeHandle = clock.setTimeout(() => resolve('hedge'), wait);
                });
              })
            : undefined;
        // The common case, one attempt and no hedge, races a literal of two (no array grown per call).
        let racers: Promise<FirstOutcome<T> | 'hedge' | 'aborted'>[];
        if (lone && !hedgeFires) racers = [lone.first, aborted];
        else {
          racers = running.map((r) => r.first);
          if (hedgeFires) racers.push(hedgeFires);
          racers.push(aborted);
        }
        const outcome = await Promise.race(racers);
        hedgeOff = true;
        if (hedgeHandle !== undefined) clock.clearTimeout(hedgeHandle);
        if (outcome === 'hedge') {
          if (replaces) {
            // The replacement of the failed side of the race: a fallback, charged, never refused.
            survivor = undefined;
            run.hedgeBudget!.charge?.();
            call.startNext(false);
            continue;
          }
          hedged = true;
          if (run.hedgeBudget!.take()) call.startNext(true);
          continue;
        }
        if (outcome === 'aborted' || callAbort.aborted) {
          for (const r of [...running]) call.cancel(r);
          if (stopped()) return;
          throw call.fail(call.callAbortError());
        }
        const r = outcome.r;
        running.splice(running.indexOf(r), 1);
        if (!outcome.ok) order.failed(r.index);
        if (outcome.ok) {
          winner = r;
          first = outcome.result;
          break;
        }
        call.closeAttempt(r);
        call.end(r);
        const callerError = run.callerError?.();
        if (callerError) {
          // The caller's input failed, not the provider: nothing is charged, the call ends.
          r.attempt.outcome = 'aborted';
          if (r.acquired) r.c.health?.release();
          for (const other of [...running]) call.cancel(other);
          running.length = 0;
          throw call.fail(afterOutput(callerError, call.committed));
        }
        const error = normalize(outcome.error, r.c.provider, run.redact);
        r.attempt.error = error;
        // A deadline that passed while the event loop was blocked is not the provider's failure.
        const stall = isRouterStall(error);
        if (r.callerTimeout !== undefined && error === r.callerTimeout) {
          // The caller's first-chunk deadline, shorter than the route's, passed: the provider was
          // still within its own allowed time. Recorded as cancelled, charged to nobody.
          call.recordCallerTimeout(r);
        } else {
          // Only a failure that is the provider's is recorded against it: not the caller's or the
          // config's error (e.g. a header the HTTP client refused to send), nor a request the
          // provider called bad (400, 413, 422; the breaker counts it as cancelled too).
          if (!stall && canFallBack(error))
            tracker.recordFailure(r.c.key, clock.now(), waitedOf(run, r, r.attempt.durationMs));
          r.c.health?.recordFailure(
            breakerFailureOf(error, { reusedSocketReset: isReusedSocketReset(error), routerStall: stall }),
          );
        }
        if (events.wants('error'))
          events.emit('error', {
            ...call.baseOf(r),
            error,
            partialOutput: false,
            elapsedMs: clock.now() - callStart,
          });
        if (!canFallBack(error)) {
          // The other side of a hedged race may have accepted the same request: it goes on.
          requestError ??= error;
          continue;
        }
        // A hedged race lost one of its two attempts: the next candidate takes its place at once,
        // rather than leaving the call to wait on the slow attempt alone; when the attempt left
        // is not slow yet (the first choice failed just after its hedge started), the next
        // candidate takes the failed one's place at the left one's hedge delay, if it is still
        // silent then (see `survivor`).
        const slow = running.length === 1 ? running[0]! : undefined;
        const racing =
          hedged &&
          requestError === undefined &&
          slow !== undefined &&
          slow.c.hedgeAfterMs !== undefined &&
          order.peek() !== undefined;
        const replace = racing && clock.now() - slow.t0 >= slow.c.hedgeAfterMs!;
        if (racing && !replace) survivor = slow;
        const peeked = order.peek();
        const queued = peeked === undefined ? undefined : run.candidates[peeked];
        const next = replace ? queued : (running[0]?.c ?? queued);
        if (next && events.wants('fallback'))
          events.emit('fallback', {
            ...call.baseOf(r),
            error,
            next: next.provider,
            partialOutput: false,
            elapsedMs: clock.now() - callStart,
          });
        if (replace) {
          run.hedgeBudget?.charge?.();
          call.startNext(false);
        }
      }
      if (!winner || !first) {
        if (!midStreamCause) throw call.fail(new AllProvidersFailedError(run.capability, attempts));
        // Resuming after a mid-stream failure found no provider to continue on.
        throw call.fail(
          cutAfterOutput(run, call, midStreamCause, midStreamProvider, midStreamContext, midStreamAttempt!),
        );
      }

      // Committed to the winner: any other running attempt lost the hedge.
      call.cancelRunning();
      running.push(winner);
      const c = winner.c;
      try {
        if (!first.done) {
          const now = clock.now();
          const ttfc = now - winner.t0;
          winner.attempt.timeToFirstChunkMs = ttfc;
          callTtfc ??= now - callStart;
          // A streaming STT provider's first transcript waited on the speaker too: its sample is
          // the transcription lag where the capability can tell it (RouteRun.latencyOf).
          const lag = c.answersOnPause ? run.latencyOf?.(first.value, winner.t0, now) : undefined;
          tracker.recordSuccess(c.key, lag ?? ttfc, now, {
            decayMs: run.ewmaDecayMs,
            coldStart: winner.cold !== false,
            firstCall: winner.cold === 'first',
          });
          if (events.wants('first-chunk'))
            events.emit('first-chunk', {
              ...call.baseOf(winner),
              timeToFirstChunkMs: ttfc,
              elapsedMs: now - callStart,
            });
          call.committed = true;
          const value = midStreamCause && run.markResumed ? run.markResumed(first.value) : first.value;
          // The first item and the winner's other items go to the caller from the call's
          // iterator itself (see ItemHandoff and routed-stream.ts), which also calls `deliver`
          // on each (one call site for every capability's bookkeeping, none in this loop), raced
          // with the call's abort there: the loop resumes here when they end; their failure, or
          // AbortError once the call was aborted, is thrown here.
          yield new ItemHandoff(value, winner.iterator!, deliver);
        }
        winner.attempt.outcome = 'success';
        call.end(winner);
        running.length = 0;
        c.health?.recordSuccess();
        call.finish(c.provider, callTtfc);
        return;
      } catch (raw) {
        call.closeAttempt(winner);
        call.end(winner);
        running.length = 0;
        if (callAbort.aborted) {
          winner.attempt.outcome = 'aborted';
          // Not the provider's outcome: a half-open breaker's probe slot is freed, as a break's
          // cancel frees it (else the next caller could not probe until the slot times out).
          if (winner.acquired) c.health?.release();
          if (stopped()) return;
          throw call.fail(call.callAbortError());
        }
        const callerError = run.callerError?.();
        if (callerError) {
          winner.attempt.outcome = 'aborted';
          if (winner.acquired) c.health?.release();
          throw call.fail(afterOutput(callerError, call.committed));
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
            ...call.baseOf(winner),
            error: cause,
            partialOutput: true,
            elapsedMs: clock.now() - callStart,
          });
        order.failed(winner.index);
        if (run.resumable && run.position) order.replan();
        // The call has output now: a candidate that cannot take over a cut stream (chat: one that
        // would answer anew rather than continue the partial reply) is never started again.
        if (run.resumable) passOverNonTakers(run.candidates, order);
        // Nothing is left for another provider (stt: all of the ended audio transcribed): the
        // call ends with what it delivered, the failure charged above.
        if (run.resumable && canFallBack(cause) && run.complete?.()) {
          call.finish(c.provider, callTtfc);
          return;
        }
        const context = winner.context;
        const resumes = run.resumable && (run.canResume && context ? run.canResume(context) : true);
        const peeked = resumes && canFallBack(cause) ? order.peek() : undefined;
        const next = peeked === undefined ? undefined : run.candidates[peeked];
        if (next) {
          // Continue the stream on the next provider from where this one stopped (the capability's
          // glue keeps the position: next sentence, audio since the last final, partial reply).
          if (events.wants('fallback'))
            events.emit('fallback', {
              ...call.baseOf(winner),
              error: cause,
              next: next.provider,
              partialOutput: true,
              elapsedMs: clock.now() - callStart,
            });
          midStreamCause = cause;
          midStreamProvider = c.provider;
          midStreamContext = context;
          midStreamAttempt = winner.attempt;
          call.resuming = true;
          continue;
        }
        throw call.fail(
          midStreamError(
            cause,
            c.provider,
            call.partialText,
            run.toolCalls?.(context),
            attempts,
            winner.attempt,
          ),
        );
      }
    }
  } finally {
    scope.dispose();
    run.release?.();
    // The consumer stopped iterating (break / return()): barge-in. Close the provider at once.
    for (const r of running) call.cancel(r);
    // The call's only attempt was stopped: close it now, with the reason it was stopped for.
    scope.closeShared();
    if (!call.settled) {
      // Stopped by the consumer: a first chunk it already had keeps its time (not the duration).
      const last = attempts[attempts.length - 1];
      call.finish(last?.provider ?? '', callTtfc);
    }
  }
}

/** Passes over every candidate whose `takesOver` is false (see RouteCandidate.takesOver). */
function passOverNonTakers(candidates: readonly { takesOver?: boolean }[], order: CandidateOrder): void {
  for (let i = 0; i < candidates.length; i++) if (candidates[i]!.takesOver === false) order.passOver(i);
}

/** `next` appended to the text delivered so far, as the run joins text (default: as is). */
function joinText<T>(run: RouteRun<T>, sofar: string, next: string | undefined): string {
  if (next === undefined || next === '') return sofar;
  return run.joinText ? run.joinText(sofar, next) : sofar + next;
}

/**
 * The caller's input failure as the call throws it: `partialOutput: true` once the call had
 * yielded output (`committed`), as every error the call throws after output says.
 */
function afterOutput(error: VoxrouteError, committed: boolean): VoxrouteError {
  return committed && RequestError.isInstance(error) ? error.afterOutput() : error;
}

/**
 * The error that ends a call whose stream was cut after output (`cause`, on `provider`, attempt
 * `cut`, in `context`) and could not be continued: MidStreamError naming the cut (its cause) and
 * every takeover that failed, whatever its failure (a 400 of the takeover too: the caller
 * already holds output, `partialOutput` says so). A function of its own, not a closure of
 * drive: nothing is built per call for a path few calls take.
 */
function cutAfterOutput<T>(
  run: RouteRun<T>,
  call: AttemptCall<T>,
  cause: VoxrouteError,
  provider: string,
  context: AttemptContext | undefined,
  cut: Attempt,
): VoxrouteError {
  return midStreamError(cause, provider, call.partialText, run.toolCalls?.(context), call.attempts, cut);
}
