import { AbortError } from '../errors/abort-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import { AbortLink } from '../internal/abort-link.js';
import type { Settle as SettleOf } from '../internal/once-stream.js';
import type { AttemptContext } from '../providers/types.js';
import type { CallSpan } from '../telemetry/tracing.js';
import type { Attempt, RouteResult } from '../types/route-result.js';
import { isEmptyAnswer } from './attempt-errors.js';
import type { CallScope } from './call-scope.js';
import { CallEvents } from './call-span.js';
import { CandidateOrder, type OrderState } from './candidate-order.js';
import { isColdStart } from './cold-start.js';
import type { RouterEventBase } from './events.js';
import type { RouteCandidate, RouteRun } from './route-run.js';
import { withDeadline } from './stall-deadline.js';

type Settle = SettleOf<RouteResult>;

/** The clock of an attempt that starts it at once: already started (one promise for every call). */
const STARTED: Promise<void> = Promise.resolve();

/** One attempt in progress. */
export interface Running<T> {
  c: RouteCandidate<T>;
  /**
   * The attempt's own abort scope, when it may have to stop while the call goes on (another
   * candidate may follow it or race it). Absent for a call's only candidate: the attempt then
   * runs on the call's signal, and stopping it alone is deferred to the end of the call.
   */
  abort: AbortLink | undefined;
  iterator: AsyncIterator<T> | undefined;
  /** What the attempt's `start` was given (set when it starts): the capability's hooks key their per-attempt state on it. */
  context: AttemptContext | undefined;
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
  /**
   * Resolves when the attempt's clock starts (`t0` set): at once, at its `ready` (see
   * {@link RouteCandidate.startsClock}), or when its input ended (see {@link RouteCandidate.inputEnded}).
   */
  clockStarted: Promise<void>;
  /** False until the clock started. */
  timing: boolean;
  /**
   * The TimeoutError of the caller's first-chunk deadline, when that deadline passed and was
   * shorter than the route's own (see {@link RouteCandidate.firstChunkByCaller}): not charged.
   */
  callerTimeout: TimeoutError | undefined;
}

export type FirstOutcome<T> =
  | { r: Running<T>; ok: true; result: IteratorResult<T> }
  | { r: Running<T>; ok: false; error: unknown };

/**
 * The state of one routed call as the attempt loop (`drive`) runs it, and the bookkeeping of
 * its attempts: starting one (its first item pulled under the first-chunk deadline), ending,
 * closing and cancelling one, and settling the call's result. One object per call whose methods
 * the loop calls, rather than a closure per helper (issue 15, P1: what a call allocates drives
 * the collections behind the tail).
 */
export class AttemptCall<T> implements OrderState {
  readonly run: RouteRun<T>;
  readonly scope: CallScope;
  /** The call's abort link: the consumer's return() aborts it too (a barge-in, not a failure). */
  readonly callAbort: AbortLink;
  readonly callStart: number;
  /** The call's router events, built only when a listener or the span will see them. */
  readonly events: CallEvents;
  readonly attempts: Attempt[] = [];
  /** The attempts running now. */
  readonly running: Running<T>[] = [];
  readonly order: CandidateOrder;
  /** An item was delivered: the call is committed to its provider. */
  committed = false;
  /** True once the call continues on another provider after output (nothing left to say is then an answer). */
  resuming = false;
  /** The call's result was settled. */
  settled = false;
  /** The text delivered so far (capabilities with {@link RouteRun.textOf}). */
  partialText = '';
  readonly #settle: Settle;
  readonly #span: CallSpan | undefined;

  constructor(run: RouteRun<T>, settle: Settle, scope: CallScope) {
    this.run = run;
    this.#settle = settle;
    this.scope = scope;
    this.callAbort = scope.link;
    this.callStart = run.clock.now();
    this.#span = run.tracing?.startCall(`voxroute.${run.capability}`, {
      'voxroute.capability': run.capability,
      'voxroute.route': run.route,
    });
    this.events = new CallEvents(run.emitter, this.#span, run.capability, run.route);
    this.order = new CandidateOrder(run.candidates, this);
  }

  /** The fields of every event about attempt `r`. */
  baseOf(r: Running<T>): RouterEventBase {
    return this.events.base(r.c.provider, r.c.model, r.number);
  }

  /** The call's position now (0 without {@link RouteRun.position}). */
  position(): number {
    return this.run.position?.() ?? 0;
  }

  /** True while the candidate of `index` has an attempt running. */
  isRunning(index: number): boolean {
    for (const r of this.running) if (r.index === index) return true;
    return false;
  }

  /** The error to throw once the call itself was aborted: the budget's TimeoutError, else AbortError. */
  callAbortError(): VoxrouteError {
    return this.scope.abortError(this.committed);
  }

  /** Aborts an attempt (its socket closed) and asks its iterator to finish, without waiting or throwing. */
  closeAttempt(r: Running<T>, reason: unknown = new AbortError('Attempt abandoned')): void {
    if (r.abort) {
      r.abort.abort(reason);
    } else this.scope.stopShared(reason);
    const ret = r.iterator?.return?.();
    if (ret) ret.catch(ignore);
  }

  /**
   * The call succeeded on `provider`; `timeToFirstChunkMs` undefined when it delivered no chunk
   * (the result's is then its duration: see RouteResult.timeToFirstChunkMs).
   */
  finish(provider: string, timeToFirstChunkMs: number | undefined): void {
    this.settled = true;
    const durationMs = this.run.clock.now() - this.callStart;
    const ttfc = timeToFirstChunkMs ?? durationMs;
    // The span's TTFC only when a chunk came: a no-chunk call's duration would skew the TTFC
    // percentiles a tracing backend computes from it.
    this.#span?.end({
      'voxroute.provider': provider,
      'voxroute.attempts': this.attempts.length,
      ...(timeToFirstChunkMs === undefined ? {} : { 'voxroute.ttfc_ms': timeToFirstChunkMs }),
      'voxroute.duration_ms': durationMs,
    });
    this.#settle.resolve({ provider, attempts: this.attempts, timeToFirstChunkMs: ttfc, durationMs });
  }

  /** The call failed with `error`, which is returned (to be thrown). */
  fail(error: unknown): unknown {
    this.settled = true;
    this.#span?.end(
      {
        'voxroute.attempts': this.attempts.length,
        'voxroute.duration_ms': this.run.clock.now() - this.callStart,
      },
      error,
    );
    this.#settle.reject(error);
    return error;
  }

  /** Ends an attempt's bookkeeping exactly once. */
  end(r: Running<T>): void {
    if (r.ended) return;
    r.ended = true;
    if (r.onCallAbort) this.callAbort.removeEventListener('abort', r.onCallAbort);
    this.run.tracker.inFlight(r.c.key, -1);
    r.attempt.durationMs = this.run.clock.now() - r.t0;
  }

  /**
   * Records attempt `r`, which failed with the caller's own first-chunk deadline (see
   * {@link Running.callerTimeout}), as a censored latency: its wait so far is a lower bound of
   * its time to first chunk that raises its latency estimate and ends its probe wait
   * (LatencyTracker.recordCallerTimeout), no failure is counted and a probe slot it held is
   * freed. The attempt keeps its error and outcome `failed` (the caller's deadline did pass).
   */
  recordCallerTimeout(r: Running<T>): void {
    const { clock, tracker } = this.run;
    if (r.timing)
      tracker.recordCallerTimeout(
        r.c.key,
        waitedOf(this.run, r, r.attempt.durationMs ?? clock.now() - r.t0),
        clock.now(),
        {
          decayMs: this.run.ewmaDecayMs,
        },
      );
    r.c.health?.recordFailure({ kind: 'cancelled' });
  }

  /** Cancels an attempt that is not charged (barge-in, hedge loser, call aborted). */
  cancel(r: Running<T>): void {
    if (r.ended) return;
    r.attempt.outcome = 'aborted';
    const { clock, tracker } = this.run;
    const elapsed = clock.now() - r.t0;
    this.closeAttempt(r);
    this.end(r);
    // A streaming STT provider cancelled before its first transcript waited on the speaker, not
    // only on itself: that wait says nothing of its latency (see RouteCandidate.answersOnPause).
    if (r.attempt.timeToFirstChunkMs === undefined && r.timing && !r.c.answersOnPause)
      // The route's EWMA decay time for the tracker (absent: the tracker's own).
      tracker.recordCancelled(r.c.key, elapsed, clock.now(), { decayMs: this.run.ewmaDecayMs });
    if (r.acquired) r.c.health?.release();
  }

  /** Cancels every attempt running (none is left running). */
  cancelRunning(): void {
    const running = this.running;
    if (running.length === 0) return;
    for (const r of [...running]) this.cancel(r);
    running.length = 0;
  }

  /** Starts the next candidate, if any (`hedge`: beside the one running). */
  startNext(hedge: boolean): Running<T> | undefined {
    const index = this.order.take();
    if (index === undefined) return undefined;
    const { run, attempts, callAbort } = this;
    const { clock, tracker } = run;
    const c = run.candidates[index]!;
    // A call's only candidate cannot be followed or raced by another: it runs on the call's signal.
    const abort = run.candidates.length > 1 ? new AbortLink() : undefined;
    let onCallAbort: (() => void) | undefined;
    if (abort) {
      onCallAbort = () => abort.abort(callAbort.reason);
      callAbort.addEventListener('abort', onCallAbort);
    }
    const attempt: Attempt = {
      provider: c.provider,
      outcome: 'failed',
      startedAtMs: clock.now() - this.callStart,
    };
    if (c.model !== undefined) attempt.model = c.model;
    attempts.push(attempt);
    const name = hedge ? 'hedge' : 'attempt';
    if (this.events.wants(name))
      this.events.emit(name, {
        ...this.events.base(c.provider, c.model, attempts.length),
        elapsedMs: attempt.startedAtMs,
      });
    tracker.inFlight(c.key, 1);
    const r: Running<T> = {
      c,
      abort,
      iterator: undefined,
      context: undefined,
      attempt,
      number: attempts.length,
      t0: clock.now(),
      cold: isColdStart(tracker.lastTriedAt(c.key), clock.now()),
      first: undefined as unknown as Promise<FirstOutcome<T>>,
      onCallAbort,
      acquired: c.health?.tryAcquire() ?? false,
      ended: false,
      index,
      clockStarted: STARTED,
      timing: !c.startsClock,
      callerTimeout: undefined,
    };
    r.first = this.#firstOutcome(r);
    this.running.push(r);
    return r;
  }

  /**
   * Starts the attempt and pulls its first item under the first-chunk deadline: the item, or
   * the attempt's failure, as an outcome of the wait loop (never rejects).
   */
  async #firstOutcome(r: Running<T>): Promise<FirstOutcome<T>> {
    const { c } = r;
    const { run, scope } = this;
    const clock = run.clock;
    try {
      let ready: (() => void) | undefined;
      /** Resolves `clockStarted` of a provider that answers only after the whole input. */
      let inputDone: (() => void) | undefined;
      if (!c.startsClock && c.inputEnded)
        // Its clock, and so its hedge delay, starts when the input ends, as its first-chunk deadline does.
        r.clockStarted = new Promise<void>((resolve) => {
          inputDone = resolve;
        });
      if (c.startsClock)
        r.clockStarted = new Promise<void>((resolve) => {
          ready = () => {
            if (r.timing) return;
            r.timing = true;
            r.t0 = clock.now();
            resolve();
          };
        });
      // An error status whose body is still being read: the answer is known, the first-chunk
      // deadline stands down (the transport's short error-body deadline bounds the rest).
      let answered = false;
      let standDown: (() => void) | undefined;
      const context: AttemptContext = {
        signal: r.abort ?? this.callAbort,
        deadlines: c.deadlines,
        transport: run.transport,
        onErrorStatus: () => {
          answered = true;
          standDown?.();
        },
      };
      // RouterOptions.WebSocket reaches WebSocket adapters (e.g. so msw's ws API can intercept).
      if (run.webSocket) context.webSocket = run.webSocket;
      r.context = context;
      r.iterator = c.start(context, ready)[Symbol.asyncIterator]();
      const firstItem = r.iterator.next();
      if (c.startsClock) {
        // The provider can answer only once it has had enough input: the clock starts there.
        firstItem.catch(ignore);
        await Promise.race([r.clockStarted, firstItem]);
        // Audio before the first clause end was handed over: the clock stays at the request's start.
        r.timing = true;
      } else if (c.inputEnded) {
        // The provider answers only after the whole input: start its clock when the input ends.
        firstItem.catch(ignore);
        await Promise.race([c.inputEnded(), firstItem]);
        r.t0 = clock.now();
        inputDone?.();
      }
      const first = await withDeadline(
        firstItem,
        answered ? 0 : c.firstChunkMs,
        clock,
        () => {
          const timeout = new TimeoutError('first-chunk', c.firstChunkMs, { provider: c.provider });
          if (c.firstChunkByCaller) r.callerTimeout = timeout;
          if (r.abort) r.abort.abort(timeout);
          else scope.stopShared(timeout);
          return timeout;
        },
        (clear) => {
          standDown = clear;
        },
      );
      // An answer with nothing in it is a failure, never a silent success (C39); after a
      // mid-stream switch, the next provider may rightly have nothing left to add.
      if (!this.resuming && isEmptyAnswer(run.capability, first)) {
        throw new ProtocolError(`Provider '${c.provider}' gave an empty answer`, { provider: c.provider });
      }
      return { r, ok: true, result: first };
    } catch (error) {
      return { r, ok: false, error };
    }
  }
}

function ignore(): void {}

/**
 * How long attempt `r`, ended `elapsedMs` after its start before its first item (a failure, or
 * the caller's own first-chunk deadline), waited on its provider, in ms: `elapsedMs`, or, for a
 * candidate that answers when the speaker pauses (streaming STT), its wait after the caller's
 * input the capability can tell ({@link RouteRun.waitedOf}): how long the user spoke before it
 * is neither the time a failure costs nor a bound of the provider's latency.
 */
export function waitedOf<T>(run: RouteRun<T>, r: Running<T>, elapsedMs: number): number;
export function waitedOf<T>(
  run: RouteRun<T>,
  r: Running<T>,
  elapsedMs: number | undefined,
): number | undefined;
export function waitedOf<T>(
  run: RouteRun<T>,
  r: Running<T>,
  elapsedMs: number | undefined,
): number | undefined {
  if (elapsedMs === undefined || !r.c.answersOnPause) return elapsedMs;
  return run.waitedOf?.(r.t0, r.t0 + elapsedMs) ?? elapsedMs;
}
