import { AbortError, TimeoutError, type VoxrouteError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import { withPartialOutput } from '../shared/with-partial-output.js';
import type { AttemptContext } from '../types.js';

/**
 * The abort plumbing of one SageMaker call, shared by response streams and bidirectional
 * streams: one controller that the attempt's signal, the `total` deadline and any local failure
 * abort; the first failure wins and is kept. `dispose()` removes the listener and the timer.
 */
export interface AttemptScope {
  readonly controller: AbortController;
  /** The first failure recorded, if any. */
  readonly failure: VoxrouteError | undefined;
  /** Records `error` (unless one is already recorded), aborts, and returns the recorded failure. */
  abortWith(error: VoxrouteError): VoxrouteError;
  /** Whether output has reached the caller: an item {@link decodeInScope} yielded was output. */
  readonly hadOutput: () => boolean;
  /** Counts one item of output yielded to the caller. */
  readonly countOutput: () => void;
  dispose(): void;
}

/**
 * Opens the scope of one attempt. Throws AbortError when the attempt is already aborted.
 * The scope counts the output {@link decodeInScope} yields: `hadOutput()` tells the `total`
 * TimeoutError (and the caller's errors) whether output had reached the caller.
 */
export function openAttemptScope(attempt: AttemptContext, clock: Clock, provider: string): AttemptScope {
  if (attempt.signal.aborted)
    throw new AbortError('The attempt was aborted', { cause: attempt.signal.reason });
  const controller = new AbortController();
  let failure: VoxrouteError | undefined;
  let outputs = 0;
  const hadOutput = () => outputs > 0;
  const abortWith = (error: VoxrouteError): VoxrouteError => {
    failure ??= error;
    controller.abort(failure);
    return failure;
  };
  const onAttemptAbort = () =>
    abortWith(new AbortError('The attempt was aborted', { cause: attempt.signal.reason }));
  attempt.signal.addEventListener('abort', onAttemptAbort, { once: true });
  const totalMs = attempt.deadlines.totalMs;
  const totalTimer =
    totalMs && totalMs > 0
      ? clock.setTimeout(
          () => abortWith(new TimeoutError('total', totalMs, { provider, partialOutput: hadOutput() })),
          totalMs,
        )
      : undefined;
  return {
    controller,
    get failure() {
      return failure;
    },
    abortWith,
    hadOutput,
    countOutput: () => {
      outputs++;
    },
    dispose() {
      if (totalTimer !== undefined) clock.clearTimeout(totalTimer);
      attempt.signal.removeEventListener('abort', onAttemptAbort);
    },
  };
}

/**
 * Yields the decoded items of one call as they come, counting in `scope` those that `isOutput`
 * accepts (text, audio, transcript events, not a bare finish). An error while decoding is rethrown as the scope's first failure when there is
 * one (a deadline, an abort), else as itself, with `partialOutput` = whether the scope's
 * `hadOutput` says output was yielded.
 */
export async function* decodeInScope<T>(
  scope: AttemptScope,
  items: AsyncIterable<T>,
  isOutput: (item: T) => boolean,
): AsyncGenerator<T, void, undefined> {
  try {
    for await (const item of items) {
      if (isOutput(item)) scope.countOutput();
      yield item;
    }
  } catch (error) {
    throw withPartialOutput(scope.failure ?? error, scope.hadOutput());
  }
}
