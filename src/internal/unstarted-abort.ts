import { AbortError } from '../errors/abort-error.js';
import type { Settle } from './once-stream.js';

/**
 * The signals that end a stream's call before it was ever iterated: the caller's own
 * (`signal`, e.g. a barge-in) and the router's close signal.
 */
export interface UnstartedSignals {
  signal?: AbortSignal | undefined;
  closeSignal?: AbortSignal | undefined;
}

/**
 * Rejects `settle` with AbortError once `signals.closeSignal` (`'The router was closed'`) or
 * `signals.signal` (`aborted`, with the signal's reason as `cause`) aborts, at once when one
 * already has. Used for the `result` of a stream awaited before it is iterated: nothing
 * started, so only these can end it. Returns the function that stops listening (called when
 * the iteration starts, or after the rejection).
 */
export function rejectOnAbort<R>(settle: Settle<R>, signals: UnstartedSignals, aborted: string): () => void {
  const { signal, closeSignal } = signals;
  const stop = () => {
    signal?.removeEventListener('abort', onAbort);
    closeSignal?.removeEventListener('abort', onAbort);
  };
  function onAbort(): void {
    stop();
    settle.reject(
      closeSignal?.aborted
        ? new AbortError('The router was closed')
        : new AbortError(aborted, { cause: signal?.reason }),
    );
  }
  if (closeSignal?.aborted || signal?.aborted) {
    onAbort();
    return stop;
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  closeSignal?.addEventListener('abort', onAbort, { once: true });
  return stop;
}
