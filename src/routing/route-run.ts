import type { ConfigError } from '../errors/config-error.js';
import type { ErrorRedactor } from '../errors/redact.js';
import type { RequestError } from '../errors/request-error.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';
import type { AttemptContext } from '../providers/types.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { Deadlines, HttpTransport } from '../transport/types.js';
import type { WebSocketTransport } from '../transport/websocket-types.js';
import type { PartialToolCall } from '../types/chat.js';
import type { Capability } from '../types/route-result.js';
import type { RouterEmitter } from './events.js';
import type { BreakerFailure } from './health/index.js';
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
  /**
   * True when `firstChunkMs` is the caller's (a per-call `firstChunkTimeoutMs`, e.g. a voice
   * turn's budget) and shorter than the route's own first-chunk deadline (or the route has
   * none): when it passes, the provider was still within its own allowed time, so the attempt
   * fails over (TimeoutError, phase `first-chunk`) but is recorded as cancelled: no failure in
   * its latency figures, nothing counted by its circuit breaker.
   */
  firstChunkByCaller?: boolean;
  /** Deadlines handed to the adapter's transport. */
  deadlines: Deadlines;
  /**
   * Starts the attempt: an iterable of output items, already in the caller's shape, from the
   * call's current {@link RouteRun.position} to the end of the call. `ready`: see
   * {@link startsClock}.
   */
  start(attempt: AttemptContext, ready?: () => void): AsyncIterable<T>;
  /**
   * True when the attempt itself says when its provider has had enough input to answer (TTS of
   * streamed text: the first clause end handed to the adapter): it calls `start`'s `ready`
   * then. Time to first chunk, the first-chunk deadline and the hedge delay count from that
   * moment, so a slow input source (an LLM) is not held against the provider. An attempt
   * cancelled before `ready` records no latency sample. Also set for an attempt that waits for
   * its adapter's code to load (see `startAfterLoad`).
   */
  startsClock?: boolean;
  /**
   * The provider answers when the speaker pauses (streaming STT): its wait for a first chunk is
   * the speaker's as much as its own, so an attempt cancelled before one (a barge-in, a lost
   * hedge) records no censored latency (see AttemptCall.cancel).
   */
  answersOnPause?: boolean;
  /**
   * For providers that answer only once all input is in (non-streaming STT): the promise that
   * resolves when the input has ended, made when an attempt first asks (reading the caller's
   * input to its end starts then, not when the call is made). Time to first chunk and the
   * first-chunk deadline then count from there, so a long utterance is not held against the
   * provider.
   */
  inputEnded?: () => Promise<void>;
  /** The candidate's circuit breaker, when the router keeps one. */
  health?: CandidateHealth;
  /** Delay after which a second choice is started beside this one (hedging), in ms; undefined: none. */
  hedgeAfterMs?: number;
  /**
   * False when the candidate cannot take over a stream cut after output (see
   * CandidateStart.takesOver): once the call has output, it is never started. Absent: true.
   */
  takesOver?: boolean;
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
   * Why there is no candidate, when `candidates` is empty: the route the caller named does not
   * exist or serves another capability, or no provider of the route maps the request's voice or
   * model (RequestError); the capability's default route is not in the config (ConfigError).
   * Thrown as it is, before any input is read.
   */
  noCandidate?: ConfigError | RequestError;
  /**
   * True (or a promise of true) when the request has nothing to do (e.g. whitespace-only text):
   * the call then yields nothing, contacts no provider and changes no score. A boolean answers
   * at once, so the first request goes out in the same turn of the event loop. `signal` is the
   * call's own (aborted by the caller's signal, router.close(), the deadline and return()); the
   * attempt loop also races a promise with the call's abort, so a wait need not watch it.
   */
  isEmpty?: (signal: AbortSource) => boolean | Promise<boolean>;
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
  /**
   * The option that set `deadlineMs`, named by its TimeoutError: `'deadlineMs'` (the request's)
   * or `'totalTimeoutMs'` (the route's). Default: `'totalTimeoutMs'`.
   */
  deadlineSetting?: 'deadlineMs' | 'totalTimeoutMs';
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
  /**
   * With `resumable`: whether the call can continue on the next candidate now, after `attempt`
   * (the context its `start` was given) failed after output (stt: false while the end of the
   * last final delivered is unknown, as replaying would repeat it; chat: false once the attempt
   * had started a tool call). False: a failure after output ends the stream with
   * MidStreamError, as when not resumable. Absent: true.
   */
  canResume?: (attempt: AttemptContext) => boolean;
  /**
   * chat: the tool calls `attempt` (the context its `start` was given) had started, for the
   * MidStreamError of a failure after output (`toolCalls`). Absent: the error has none.
   */
  toolCalls?: (attempt: AttemptContext | undefined) => PartialToolCall[];
  /**
   * With `resumable`: true when a failure after output leaves nothing for another provider to
   * produce (stt: the caller's audio has ended, a final with text was delivered, no partial with
   * text came since the last final, and every byte of the audio that is not digital silence is
   * covered by a final delivered). The call then ends with what was delivered: the failing
   * provider is charged, no other is started. Absent: false.
   */
  complete?: () => boolean;
  /** Marks the first item after a mid-stream switch of provider (TTS: `discontinuity: true`). */
  markResumed?: (item: T) => T;
  /**
   * The latency sample of an attempt of an {@link RouteCandidate.answersOnPause} candidate whose
   * first item is `item`, started at `startedAtMs` and answered at `nowMs` (the router's clock,
   * ms): how long after the audio the item speaks of had reached the router the item came
   * (streaming STT: the transcription lag), so how long the user spoke is not held against the
   * provider. Undefined (or absent): the time to first chunk is the sample.
   */
  latencyOf?: (item: T, startedAtMs: number, nowMs: number) => number | undefined;
  /**
   * How long an attempt of an {@link RouteCandidate.answersOnPause} candidate, started at
   * `startedAtMs` and ended at `endedAtMs` before its first item (a failure, or the caller's own
   * first-chunk deadline), waited on its provider rather than on the caller (the router's clock,
   * ms): from when the caller's input had last been read, or the attempt's start if later
   * (streaming STT: the failure's lag after the audio, as {@link latencyOf} is an answer's), so
   * how long the user spoke before it is not held against the provider as the time a failure
   * costs (`failMs`) or as a censored latency. Undefined (or absent): the attempt's duration.
   */
  waitedOf?: (startedAtMs: number, endedAtMs: number) => number | undefined;
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
   * continues on the first provider of the call's order (see CandidateOrder: the route's
   * order, each provider that failed in this call moved to the back) whose circuit breaker
   * lets calls through and that has not failed at this position; that provider keeps the rest
   * of the call until it fails in turn. A provider is ruled out for the rest of the call only
   * by its breaker. Without it, a provider that failed after output is not tried again in the
   * call.
   */
  position?: () => number;
  /** Called once when the call ends, however it ends (the capability's glue releases its input: tts stops reading the caller's text, stt returns the caller's audio iterator). */
  release?: () => void;
}
