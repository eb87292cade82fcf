import { AbortError } from '../../src/errors/index.js';
import { nextOf, type Takeable } from '../../src/internal/takeable.js';
import type { HttpResponse } from '../../src/transport/types.js';

/**
 * A response whose body is {@link Takeable}, fed by hand (`push` one read's bytes each, `end`,
 * `fail`); it counts the body's next() and return() calls and the response's cancel(). Like the
 * transport's body, cancel() before the end fails the body with AbortError and wakes a waiting
 * reader.
 */
export function handBody() {
  const items: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const counts = { next: 0, return: 0, cancel: 0 };
  const body: Takeable<Uint8Array> = {
    take: () => {
      const item = items.shift();
      if (item) return { value: item, done: false };
      if (failure !== undefined) throw failure;
      return ended ? { value: undefined, done: true } : undefined;
    },
    onReadable: (w) => {
      wake = w;
    },
    next: () => {
      counts.next++;
      return nextOf(body);
    },
    return: () => {
      counts.return++;
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const response: HttpResponse = {
    status: 200,
    headers: {},
    body: { [Symbol.asyncIterator]: () => body },
    cancel: () => {
      counts.cancel++;
      if (!ended && failure === undefined) {
        items.length = 0;
        failure = new AbortError('The response was cancelled');
        poke();
      }
      return Promise.resolve();
    },
  };
  return {
    response,
    counts,
    /** One read per argument: each is the bytes (or text, UTF-8) of one body chunk. */
    push: (...reads: (number[] | Uint8Array | string)[]) => {
      for (const r of reads) {
        items.push(typeof r === 'string' ? new TextEncoder().encode(r) : Uint8Array.from(r));
      }
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
    fail: (error: unknown) => {
      failure = error;
      poke();
    },
  };
}
