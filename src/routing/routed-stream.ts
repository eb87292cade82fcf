import { onceStream, type Settle as SettleOf } from '../internal/once-stream.js';
import type { RoutedStream, RouteResult } from '../types/route-result.js';
import { drive } from './attempt-loop.js';
import { CallScope } from './call-scope.js';
import type { RouteRun } from './route-run.js';

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
  const scope = new CallScope();
  let stopped = false;
  const generator = drive(run, settle, scope, () => stopped);
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
        scope.abort();
      }
      // Queued behind a pending next(), which the abort settles at once.
      await generator.return().catch(() => {});
      return done();
    },
    throw: async (error: unknown) => {
      if (!stopped) {
        stopped = true;
        scope.abort();
      }
      await generator.return().catch(() => {});
      throw error;
    },
  };
}
