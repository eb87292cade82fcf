/** A capability the router routes. */
export type Capability = 'tts' | 'stt' | 'chat';

/** How an attempt on one provider ended. */
export type AttemptOutcome = 'success' | 'failed' | 'aborted' | 'skipped';

/** One try of one provider within a routed call. Times are ms, from a monotonic clock. */
export interface Attempt {
  /** Name of the provider tried, as in the config. */
  provider: string;
  /** Provider-side model or voice id used. */
  model?: string;
  /**
   * How the attempt ended: `'success'` it served the call to its end; `'failed'` it ended in an
   * error (in `error`); `'aborted'` it was cancelled without blame (the caller's abort or break,
   * a hedge that lost the race, a failure of the caller's own input).
   */
  outcome: AttemptOutcome;
  /** When the attempt started, ms since the call started. */
  startedAtMs: number;
  /** Time from the attempt's start to its first chunk, in ms, if it produced one. */
  timeToFirstChunkMs?: number;
  /** Time from the attempt's start to its end, in ms. */
  durationMs?: number;
  /** The error it failed with. */
  error?: unknown;
}

/**
 * What a routed call did: the provider that served it (after a switch mid-stream, the one that
 * served the end), every attempt in order (a TTS call resumed mid-stream may list a provider
 * more than once: a provider that failed is asked again once the one that took over failed too),
 * the time from the call to its first chunk (ms) and the call's whole duration (ms).
 */
export interface RouteResult {
  /** Name of the provider that served the call (after a switch mid-stream, the one that served the end). */
  provider: string;
  /** Every attempt of the call, in the order they started. */
  attempts: Attempt[];
  /**
   * Time from the call to its first chunk, in ms. A call that delivered no chunk (input with
   * nothing to speak or hear, a caller that stopped before the first chunk, by `break` or the
   * iterator's `return()`) has no first chunk: the field is then `durationMs`, the time that
   * passed without one (0 for a stream stopped before its first `next()`), for tts, chat and stt
   * alike, and no attempt has a `timeToFirstChunkMs`. An aborted call has no RouteResult:
   * `result` rejects with AbortError.
   */
  timeToFirstChunkMs: number;
  /** The call's whole duration, in ms. */
  durationMs: number;
}

/**
 * The stream a routed call returns: iterate it once with `for await`. Breaking out of the
 * loop (or aborting the request's signal) closes the provider connection at once (barge-in).
 * `result` resolves when the stream ends normally and rejects with the same error the
 * iterator threw otherwise: it settles once the stream is read to its end (or ended by a break,
 * an abort or an error). A break resolves it, unless the request's signal aborted or the router
 * closed before the break: the call ended with that AbortError then. Awaiting `result` does not read the stream: awaited before the stream
 * is iterated, it rejects with AbortError when the request's signal aborts or the router is
 * closed (`'The router was closed'`), and otherwise waits for the iteration.
 */
export interface RoutedStream<T> extends AsyncIterable<T> {
  /**
   * What the call did; resolves when the stream ends normally, rejects with the iterator's error otherwise.
   */
  readonly result: Promise<RouteResult>;
}
