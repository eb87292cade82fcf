import { iteratedTwice, type OnceStreamKind, ROUTED_STREAM } from '../internal/once-stream.js';
import type { RoutedStream } from '../types/route-result.js';

/**
 * A RoutedStream that contacts no provider and fails with `error`: the first `next()` rejects
 * with it, and so does `result` (which never causes an unhandled rejection by itself). Like
 * every stream of a call it can be iterated once: a second `[Symbol.asyncIterator]()` throws
 * the RequestError of {@link iteratedTwice} for `kind` (default: a RoutedStream).
 */
export function rejectedStream<T>(error: Error, kind: OnceStreamKind = ROUTED_STREAM): RoutedStream<T> {
  const result = Promise.reject(error);
  result.catch(() => {});
  let iterated = false;
  return {
    result,
    [Symbol.asyncIterator]: () => {
      if (iterated) throw iteratedTwice(kind);
      iterated = true;
      return {
        next: () => Promise.reject(error),
        return: () => Promise.resolve({ done: true, value: undefined }),
      };
    },
  };
}
