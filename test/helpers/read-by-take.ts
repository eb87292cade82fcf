import type { Takeable } from '../../src/internal/takeable.js';
import { readAll } from '../../src/routing/tts-sentence-queue.js';

/**
 * Reads a {@link Takeable} to its end with `take()` and `onReadable()` alone (no promise per
 * item; the router's own reader, `readAll`): every item, in order. Rejects with what `take()`
 * throws.
 */
export async function readAllByTake<T>(source: Takeable<T>): Promise<T[]> {
  const out: T[] = [];
  await readAll<T, T>(source, undefined, (item) => {
    out.push(item);
  });
  return out;
}
