import { AbortError } from '../errors/abort-error.js';
import { AllProvidersFailedError } from '../errors/all-providers-failed-error.js';
import type { ConfigError } from '../errors/config-error.js';
import { MidStreamError } from '../errors/mid-stream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { ErrorRedactor } from '../errors/redact.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { Clock } from '../internal/clock.js';
import { onceStream, type Settle as SettleOf } from '../internal/once-stream.js';
import { isRouterStall } from '../internal/stall.js';
import type { AttemptContext } from '../providers/types.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { Deadlines, HttpTransport } from '../transport/types.js';
import type { WebSocketTransport } from '../transport/websocket-types.js';
import type { Attempt, Capability, RoutedStream, RouteResult } from '../types/route-result.js';
import { AbortableNext } from './abortable-next.js';
import { canFallBack } from './classify.js';
import type { RouterEmitter, RouterEventBase, RouterEvents } from './events.js';
import { type BreakerFailure, breakerFailureOf } from './health/index.js';
import type { LatencyTracker } from './latency-tracker.js';
import { withDeadline } from './stall-deadline.js';

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
  /**
   * Starts the attempt: an iterable of output items, already in the caller's shape. `standIn`:
   * the attempt stands in for a provider earlier in the order that failed at the call's
   * current {@link RouteRun.position}; it ends once the position has moved on (TTS: after the
   * sentence it took over), and the call goes back to the route's order.
   */
  start(attempt: AttemptContext, standIn?: boolean, ready?: () => void): AsyncIterable<T>;
  /**
   * True when the attempt itself says when its provider has had enough input to answer (TTS of
   * streamed text: the first clause end handed to the adapter): it calls `start`'s `ready`
   * then. Time to first chunk, the first-chunk deadline and the hedge delay count from that
   * moment, so a slow input source (an LLM) is not held against the provider. An attempt
   * cancelled before `ready` records no latency sample.
   */
  startsClock?: boolean;
  /**
   * For providers that answer only once all input is in (non-streaming STT): resolves when the
   * input has ended. Time to first chunk and the first-chunk deadline then count from there,
   * so a long utterance is not held against the provider.
   */
  inputEnded?: Promise<void>;
  /** The candidate's circuit breaker, when the router keeps one. */
  health?: CandidateHealth;
  /** Delay after which a second choice is started beside this one (hedging), in ms; undefined: none. */
  hedgeAfterMs?: number;
}

/**
 * What the attempt loop tells a candidate's circuit breaker. `tryAcquire` takes the half-open
 * probe slot (false when another call holds it: the attempt still runs, as a last resort);
 * `release` frees it for an attempt that was cancelled (not charged).
 */
export interface CandidateHealth {
  /** True when the breaker lets calls through now (closed, or half-open with its probe slot free). */
  allows(): boolean;
  tryAcquire(): boolean;
  recordSuccess(): void;
  recordFailure(failure: BreakerFailure): void;
  release(): void;
}

/** A budget of hedges: `take()` returns false when hedging would exceed the route's share. */
export interface HedgeBudget {
  take(): boolean;
  /** Charges a fallback (a request beyond the call's first that was not a hedge); optional. */
  charge?(): void;
}

/** A call to route: ordered candidates and the router's shared parts. */
export interface RouteRun<T> {
  capability: Capability;
  route: string;
  /** Candidates in the order to try them. */
  candidates: RouteCandidate<T>[];
  /**
   * Why there is no candidate, when `candidates` is empty: the route does not exist or serves
   * another capability, or no provider maps the request's voice or model. Thrown as it is.
   */
  noCandidate?: ConfigError;
  /**
   * Resolves true when the request has nothing to do (e.g. whitespace-only text): the call then
   * yields nothing, contacts no provider and changes no score.
   */
  isEmpty?: () => Promise<boolean>;
  signal: AbortSignal | undefined;
  closeSignal: AbortSignal;
  transport: HttpTransport;
  /** WebSocket transport for adapters of WebSocket protocols. */
  webSocket?: WebSocketTransport;
  clock: Clock;
  tracker: LatencyTracker;
  emitter: RouterEmitter;
  /** Text an item adds to the output (chat deltas, final transcripts), kept for MidStreamError. */
  textOf?: (item: T) => string | undefined;
  /** Deadline of the whole call, all attempts included, in ms (TimeoutError phase `total`). */
  deadlineMs?: number;
  /** Budget of hedged attempts; absent: no hedging. */
  hedgeBudget?: HedgeBudget;
  /** OpenTelemetry spans; absent: none. */
  tracing?: Tracing;
  /**
   * Removes every configured secret from an error built from provider bytes (message, stack,
   * fields, cause chain), in place; applied to every adapter error before anything sees it.
   */
  redact?: ErrorRedactor;
  /** Decay time (ms) of the EWMA in the latency score, from the route's `ewmaDecayMs`; undefined: the tracker's. */
  ewmaDecayMs?: number;
  /**
   * True when a failure after output may continue on the next candidate (route `midStream`
   * `resume`, `replay` or `continue`): the capability's glue then starts the next provider from
   * where the stream stopped. False: the stream ends with MidStreamError.
   */
  resumable?: boolean;
  /** Marks the first item after a mid-stream switch of provider (TTS: `discontinuity: true`). */
  markResumed?: (item: T) => T;
  /** Called with each item just before the caller gets it (the capability's glue tracks progress). */
  onDelivered?: (item: T) => void;
  /**
   * The caller's own input failed (its text or audio iterable threw, or gave an item of the
   * wrong type): then any attempt failure is that RequestError, charged to no provider.
   */
  callerError?: () => VoxrouteError | undefined;
  /** Joins the text delivered so far and the next item's text (default: concatenation). */
  joinText?: (sofar: string, next: string) => string;
  /**
   * Where the call's output stands, a number that only grows (TTS: sentences fully delivered).
   * With it, a failure after output rules a provider out only at that position: the call
   * continues on the first provider of the route's order whose circuit breaker lets calls
   * through and that has not failed at this position, and a stand-in (see
   * {@link RouteCandidate.start}) hands back to the route's order once the position moved on.
   * A provider is then ruled out for the rest of the call only by its breaker. Without it, a
   * provider that failed after output is not tried again in the call.
   */
  position?: () => number;
  /** True while the call has output still to produce (checked when a stand-in attempt ends). */
  unfinished?: () => boolean;
  /** Called once when the call ends, however it ends (the capability's glue releases its input: tts stops reading the caller's text, stt returns the caller's audio iterator). */
  release?: () => void;
}

type Settle = SettleOf<RouteResult>;

/**
 * Wraps a routed call as a {@link RoutedStream}. Nothing starts until the caller iterates.
 * The stream can be iterated once; `result` never causes an unhandled rejection by itself.
 */
export function routedStream<T>(run: RouteRun<T>): RoutedStream<T> {
  return onceStream('RoutedStream', (settle: Settle) => stoppable(run, settle));
}

/**
 * The call's iterator. `return()` stops the call at once, even while a `next()` is pending
 * (how frameworks race an iterator against barge-in): every attempt is aborted (its socket
 * closed), the pending `next()` resolves done, and no item is delivered after `return()`.
 */
function stoppable<T>(run: RouteRun<T>, settle: Settle): AsyncIterator<T, void, undefined> {
  // The call's one abort scope, shared with drive(): return() and throw() abort it directly.
  const callAbort = new AbortController();
  let stopped = false;
  const generator = drive(run, settle, callAbort, () => stopped);
  const done = (): IteratorResult<T, void> => ({ done: true, value: undefined });
  return {
    next: () => {
      if (stopped) return Promise.resolve(done());
      return generator.next().then(
        (r) => (stopped ? done() : r),
        (error: unknown) => {
          if (stopped) return done();
          throw error;
        },
      );
    },
    return: async () => {
      if (!stopped) {
        stopped = true;
        callAbort.abort();
      }
      // Queued behind a pending next(), which the abort settles at once.
      await generator.return().catch(() => {});
      return done();
    },
    throw: async (error: unknown) => {
      if (!stopped) {
        stopped = true;
        callAbort.abort();
      }
      await generator.return().catch(() => {});
      throw error;
    },
  };
}

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
  base: RouterEventBase;
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
async function* drive<T>(
  run: RouteRun<T>,
  settle: Settle,
  callAbort: AbortController,
  stopped: () => boolean,
): AsyncGenerator<T, void, undefined> {
  const { clock, tracker } = run;
  const callStart = clock.now();
  const span = run.tracing?.startCall(`voxroute.${run.capability}`, {
    'voxroute.capability': run.capability,
    'voxroute.route': run.route,
  });
  /** Emits a router event, and records it on the call's span. */
  const emitter = {
    emit<E extends 'attempt' | 'hedge' | 'first-chunk' | 'fallback' | 'error'>(
      name: E,
      event: RouterEvents[E],
    ): void {
      run.emitter.emit(name, event);
      span?.event(name, spanAttributes(event as RouterEventBase & Record<string, unknown>));
    },
  };
  const attempts: Attempt[] = [];
  const onAbort = () => callAbort.abort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  run.closeSignal.addEventListener('abort', onAbort, { once: true });
  // The consumer's return() aborts callAbort itself: a barge-in, not a failure (the call
  // settles as for a break; stopped() tells it apart).
  if (run.signal?.aborted || run.closeSignal.aborted) callAbort.abort();
  /**
   * Why the call's only attempt, which runs on the call's signal, was stopped: the signal is
   * aborted with it when the call ends, so that the attempt's socket is closed then (the call
   * has no other candidate, so it ends right after).
   */
  let sharedAbortReason: unknown;
  /** Aborts an attempt (its socket closed) and asks its iterator to finish, without waiting or throwing. */
  const closeAttempt = (r: Running<T>, reason: unknown = new AbortError('Attempt abandoned')) => {
    if (r.abort) {
      if (!r.abort.signal.aborted) r.abort.abort(reason);
    } else sharedAbortReason ??= reason;
    const ret = r.iterator?.return?.();
    if (ret) ret.catch(() => {});
  };
  let budgetTimer: unknown;
  if (run.deadlineMs) {
    const ms = run.deadlineMs;
    budgetTimer = clock.setTimeout(() => callAbort.abort(new TimeoutError('total', ms)), ms);
  }
  let committed = false;
  /** True once the call continues on another provider after output (nothing left to say is then an answer). */
  let resuming = false;
  /** The error to throw once the call itself was aborted: the budget's TimeoutError, else AbortError. */
  const callAbortError = (): VoxrouteError => {
    const reason: unknown = callAbort.signal.reason;
    if (TimeoutError.isInstance(reason)) {
      return committed ? new TimeoutError('total', reason.timeoutMs, { partialOutput: true }) : reason;
    }
    return new AbortError(run.closeSignal.aborted ? 'The router was closed' : 'The call was aborted', {
      cause: run.signal?.reason,
    });
  };

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
  /** The route's EWMA decay time for the tracker (absent: the tracker's own). */
  const decay = run.ewmaDecayMs !== undefined ? { decayMs: run.ewmaDecayMs } : {};
  /** Cancels an attempt that is not charged (barge-in, hedge loser, call aborted). */
  const cancel = (r: Running<T>) => {
    if (r.ended) return;
    r.attempt.outcome = 'aborted';
    const elapsed = clock.now() - r.t0;
    closeAttempt(r);
    end(r);
    if (r.attempt.timeToFirstChunkMs === undefined && r.timing)
      tracker.recordCancelled(r.c.key, elapsed, clock.now(), decay);
    if (r.acquired) r.c.health?.release();
  };

  let nextIndex = 0;
  const position = (): number => run.position?.() ?? 0;
  /**
   * Set after a failure after output on a run with positions: candidates are then taken in the
   * route's order, skipping those running, those whose breaker is open, and those that failed
   * at the current position (`failedAt`: candidate index -> position of its last failure).
   */
  let replanned = false;
  const failedAt = new Map<number, number>();
  const eligible = (i: number, pos: number): boolean =>
    failedAt.get(i) !== pos &&
    !running.some((r) => r.index === i) &&
    (run.candidates[i]!.health?.allows() ?? true);
  /** Index of the candidate to start next, if any. */
  const peekNext = (): number | undefined => {
    if (!replanned) return nextIndex < run.candidates.length ? nextIndex : undefined;
    const pos = position();
    for (let i = 0; i < run.candidates.length; i++) if (eligible(i, pos)) return i;
    return undefined;
  };
  const startNext = (hedge: boolean): Running<T> | undefined => {
    const index = peekNext();
    if (index === undefined) return undefined;
    if (!replanned) nextIndex++;
    const c = run.candidates[index]!;
    const pos = position();
    // An earlier candidate, healthy, passed over only because it failed here: this one stands in.
    let standIn = false;
    if (replanned)
      for (let j = 0; j < index; j++)
        if (failedAt.get(j) === pos && (run.candidates[j]!.health?.allows() ?? true)) standIn = true;
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
    const base: RouterEventBase = {
      capability: run.capability,
      route: run.route,
      provider: c.provider,
      attempt: attempts.length,
    };
    if (c.model !== undefined) base.model = c.model;
    emitter.emit(hedge ? 'hedge' : 'attempt', { ...base, elapsedMs: attempt.startedAtMs });
    tracker.inFlight(c.key, 1);
    const r: Running<T> = {
      c,
      abort,
      iterator: undefined,
      attempt,
      base,
      t0: clock.now(),
      cold: isColdStart(tracker.lastTriedAt(c.key), clock.now()),
      first: undefined as unknown as Promise<FirstOutcome<T>>,
      onCallAbort,
      acquired: c.health?.tryAcquire() ?? false,
      ended: false,
      index,
      standIn,
      position: pos,
      clockStarted: Promise.resolve(),
      timing: !c.startsClock,
    };
    r.first = pullFirst(r).then(
      (result) => ({ r, ok: true as const, result }),
      (error: unknown) => ({ r, ok: false as const, error }),
    );
    running.push(r);
    return r;
  };
  const pullFirst = async (r: Running<T>): Promise<IteratorResult<T>> => {
    const { c } = r;
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
    r.iterator = c
      .start(
        {
          signal: r.abort ? r.abort.signal : callAbort.signal,
          deadlines: c.deadlines,
          transport: run.transport,
          // RouterOptions.WebSocket reaches WebSocket adapters (e.g. so msw's ws API can intercept).
          ...(run.webSocket ? { webSocket: run.webSocket } : {}),
        },
        r.standIn,
        ready,
      )
      [Symbol.asyncIterator]();
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
      else sharedAbortReason ??= timeout;
      return timeout;
    });
    // An answer with nothing in it is a failure, never a silent success (C39); after a
    // mid-stream switch, the next provider may rightly have nothing left to add.
    if (!resuming && isEmptyAnswer(run.capability, first)) {
      throw new ProtocolError(`Provider '${c.provider}' gave an empty answer`, { provider: c.provider });
    }
    return first;
  };

  try {
    if (callAbort.signal.aborted) throw fail(callAbortError());
    if (run.isEmpty) {
      let empty: boolean;
      try {
        empty = await run.isEmpty();
      } catch (error) {
        // The input failed or was stopped (barge-in while the caller's text source waits).
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

    /** Settles when the call is aborted (one listener for the whole call). */
    const aborted = new Promise<'aborted'>((resolve) => {
      if (callAbort.signal.aborted) resolve('aborted');
      else callAbort.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    /** Pulls the winner's items, each raced with the call's abort (see AbortableNext). */
    let pull: AbortableNext | undefined;
    let partialText = '';
    const join = (sofar: string, next: string | undefined): string =>
      next === undefined || next === '' ? sofar : run.joinText ? run.joinText(sofar, next) : sofar + next;
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
        const outcome = await Promise.race([
          ...running.map((r) => r.first),
          ...(hedgeFires ? [hedgeFires] : []),
          aborted,
        ]);
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
        if (!outcome.ok) failedAt.set(r.index, position());
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
        if (!stall) tracker.recordFailure(r.c.key, clock.now(), r.attempt.durationMs);
        r.c.health?.recordFailure(
          breakerFailureOf(error, { reusedSocketReset: isReusedSocketReset(error), routerStall: stall }),
        );
        emitter.emit('error', { ...r.base, error, partialOutput: false, elapsedMs: clock.now() - callStart });
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
        if (next)
          emitter.emit('fallback', {
            ...r.base,
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
            ...decay,
            coldStart: winner.cold !== false,
            firstCall: winner.cold === 'first',
          });
          emitter.emit('first-chunk', {
            ...winner.base,
            timeToFirstChunkMs: ttfc,
            elapsedMs: now - callStart,
          });
          committed = true;
          const value = midStreamCause && run.markResumed ? run.markResumed(first.value) : first.value;
          if (run.textOf) partialText = join(partialText, run.textOf(value));
          run.onDelivered?.(value);
          yield value;
          const iterator = winner.iterator!;
          pull ??= new AbortableNext(callAbort.signal);
          for (;;) {
            // Raced with the call's abort: a provider that ignores its signal cannot hold the call.
            const r = await pull.next(iterator);
            if (r === 'aborted') throw new AbortError('The call was aborted');
            if (r.done) break;
            if (run.textOf) partialText = join(partialText, run.textOf(r.value));
            run.onDelivered?.(r.value);
            yield r.value;
          }
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
        if (!stall) tracker.recordFailure(c.key, clock.now());
        c.health?.recordFailure(
          breakerFailureOf(cause, { reusedSocketReset: isReusedSocketReset(cause), routerStall: stall }),
        );
        emitter.emit('error', {
          ...winner.base,
          error: cause,
          partialOutput: true,
          elapsedMs: clock.now() - callStart,
        });
        failedAt.set(winner.index, position());
        if (run.resumable && run.position) replanned = true;
        const peeked = run.resumable && canFallBack(cause) ? peekNext() : undefined;
        const next = peeked === undefined ? undefined : run.candidates[peeked];
        if (next) {
          // Continue the stream on the next provider from where this one stopped (the capability's
          // glue keeps the position: next sentence, audio since the last final, partial reply).
          emitter.emit('fallback', {
            ...winner.base,
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
    if (budgetTimer !== undefined) clock.clearTimeout(budgetTimer);
    run.signal?.removeEventListener('abort', onAbort);
    run.closeSignal.removeEventListener('abort', onAbort);
    run.release?.();
    // The consumer stopped iterating (break / return()): barge-in. Close the provider at once.
    for (const r of running) cancel(r);
    // The call's only attempt was stopped: close it now, with the reason it was stopped for.
    if (sharedAbortReason !== undefined && !callAbort.signal.aborted) callAbort.abort(sharedAbortReason);
    if (!settled) {
      const last = attempts[attempts.length - 1];
      finish(last?.provider ?? '', undefined);
    }
  }
}

/**
 * True when an attempt's first pull shows an empty answer to a request with something to do
 *: a chat stream that ends, or finishes, before any text or tool call, and a TTS stream
 * that ends before any audio (text with no speech never gets this far). STT may end with
 * no transcript at all when the audio held no speech, so it is never empty in this sense.
 */
function isEmptyAnswer(capability: Capability, first: IteratorResult<unknown>): boolean {
  if (capability === 'stt') return false;
  if (first.done) return true;
  return capability === 'chat' && (first.value as { type?: unknown }).type === 'finish';
}

/**
 * Idle time after which a provider's next call is taken as a cold start (SageMaker scale-up,
 * an EC2 model reloading, cold TLS): its TTFC is averaged in without the peak jump, once.
 */
export const COLD_START_AFTER_MS = 5 * 60_000;

function isColdStart(lastTriedAt: number | undefined, now: number): false | 'first' | 'idle' {
  if (lastTriedAt === undefined) return 'first';
  return now - lastTriedAt > COLD_START_AFTER_MS ? 'idle' : false;
}

/** True for a reset of a reused keep-alive socket that could not be retried: not the provider's fault. */
function isReusedSocketReset(error: VoxrouteError): boolean {
  return ProviderError.isInstance(error) && error.reusedSocketReset;
}

/**
 * The error that ends a stream after output: MidStreamError with the provider's error as its
 * cause, `partialText` for text capabilities.
 */
function midStreamError(cause: VoxrouteError, provider: string, partialText: string): MidStreamError {
  return new MidStreamError(`Provider '${provider}' failed after output had started: ${cause.message}`, {
    cause,
    provider,
    retryable: cause.retryable,
    ...(partialText ? { partialText } : {}),
  });
}

/** The span attributes of a router event: names, numbers and error codes, never a message. */
function spanAttributes(
  event: RouterEventBase & Record<string, unknown>,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {
    'voxroute.provider': event.provider,
    'voxroute.attempt': event.attempt,
  };
  if (event.model !== undefined) out['voxroute.model'] = event.model;
  if (event.elapsedMs !== undefined) out['voxroute.elapsed_ms'] = event.elapsedMs;
  if (typeof event.timeToFirstChunkMs === 'number') out['voxroute.ttfc_ms'] = event.timeToFirstChunkMs;
  if (typeof event.next === 'string') out['voxroute.next'] = event.next;
  if (typeof event.partialOutput === 'boolean') out['voxroute.partial_output'] = event.partialOutput;
  if (VoxrouteError.isInstance(event.error)) {
    out['error.type'] = event.error.name;
    out['voxroute.error.code'] = event.error.code;
    if (ProviderError.isInstance(event.error) && event.error.status !== undefined) {
      out['voxroute.error.status'] = event.error.status;
    }
  }
  return out;
}

/**
 * Any error an adapter threw, as a VoxrouteError naming the provider, with every configured
 * secret removed (the one place where the router receives errors built from provider bytes).
 */
function normalize(error: unknown, provider: string, redact: ErrorRedactor | undefined): VoxrouteError {
  if (redact) redact(error);
  if (VoxrouteError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`Provider '${provider}' failed: ${message}`, {
    provider,
    retryable: true,
    cause: error,
  });
}
