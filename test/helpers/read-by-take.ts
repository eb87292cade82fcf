import type { Takeable } from '../../src/internal/takeable.js';

/**
 * Reads a {@link Takeable} to its end with `take()` and `onReadable()` alone (no promise per
 * item): every item, in order. Rejects with what `take()` throws.
 */
export function readAllByTake<T>(source: Takeable<T>): Promise<T[]> {
  const out: T[] = [];
  return new Promise((resolve, reject) => {
    const read = (): void => {
      for (;;) {
        let r: IteratorResult<T> | undefined;
        try {
          r = source.take();
        } catch (error) {
          reject(error);
          return;
        }
        if (r === undefined) {
          source.onReadable(read);
          return;
        }
        if (r.done) {
          resolve(out);
          return;
        }
        out.push(r.value);
      }
    };
    read();
  });
}
