import { VoxrouteError } from '../errors/voxroute-error.js';

/** How the run behind a {@link onceStream} settles its `result`. */
export interface Settle<R> {
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * A stream that can be iterated once, with a `result` that the run behind it settles
 * (RoutedStream, VoiceTurn). Nothing starts until the caller iterates: the first
 * `[Symbol.asyncIterator]()` calls `start(settle)`. `result` never causes an unhandled
 * rejection by itself.
 * @throws VoxrouteError (`A {name} can be iterated only once`) from a second `[Symbol.asyncIterator]()`.
 */
export function onceStream<R, I extends AsyncIterator<unknown>>(
  name: string,
  start: (settle: Settle<R>) => I,
): { result: Promise<R>; [Symbol.asyncIterator](): I } {
  let settle!: Settle<R>;
  const result = new Promise<R>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(() => {});
  let used = false;
  return {
    result,
    [Symbol.asyncIterator]() {
      if (used) throw new VoxrouteError(`A ${name} can be iterated only once`);
      used = true;
      return start(settle);
    },
  };
}
