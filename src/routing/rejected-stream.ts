import type { RoutedStream } from '../types/route-result.js';

/**
 * A RoutedStream that contacts no provider and fails with `error`: the first `next()` rejects
 * with it, and so does `result` (which never causes an unhandled rejection by itself).
 */
export function rejectedStream<T>(error: Error): RoutedStream<T> {
  const result = Promise.reject(error);
  result.catch(() => {});
  return {
    result,
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(error),
      return: () => Promise.resolve({ done: true, value: undefined }),
    }),
  };
}
