import { AbortError } from '../errors/abort-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { CandidateStart } from './capability.js';

/**
 * `made`, whose attempts start only once `loading` (the adapter's code still loading, see
 * `ProviderAdapter.ready`) has ended. The attempt's clock starts then, through
 * `RouteCandidate.startsClock`: time to first chunk, the first-chunk deadline, the hedge
 * delay and the latency sample leave the load out, so a provider is not charged for the time
 * its SDK takes to load (the adapter's own deadlines start with the attempt, after the load
 * too). When `made` has its own clock start (streamed text, or input that must end first), the
 * clock starts at whichever comes last. An attempt aborted during the load ends with
 * AbortError without starting, and records no latency sample.
 */
export function startAfterLoad<T>(loading: Promise<void>, made: CandidateStart<T>): CandidateStart<T> {
  const { start, startsClock, inputEnded, ...rest } = made;
  return {
    ...rest,
    startsClock: true,
    start: async function* (attempt, standIn, ready) {
      await loaded(loading, attempt.signal);
      if (startsClock) {
        yield* start(attempt, standIn, ready);
        return;
      }
      const startClock = () => ready?.();
      // A provider that answers only after the whole input: its clock starts when the input ends.
      if (inputEnded) inputEnded.then(startClock, startClock);
      else startClock();
      yield* start(attempt, standIn);
    },
  };
}

/** Resolves when `loading` has ended; rejects with AbortError when `signal` aborts first. */
function loaded(loading: Promise<void>, signal: AbortSource): Promise<void> {
  const abortError = () => new AbortError('The attempt was aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    void loading.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
