/**
 * Pulls items from iterators one at a time, each pull raced against an AbortSignal: the pull
 * resolves with `'aborted'` once the signal aborts, whether or not the iterator ever answers
 * (a provider that ignores its signal cannot hold a call).
 *
 * Why not `Promise.race([iterator.next(), aborted])` per item: each race leaves a reaction on
 * the long-lived `aborted` promise, and that reaction keeps the race's settled promise, so its
 * value (the item: an audio chunk, a text delta) stays reachable until the call ends
 * (nodejs/node#17469). A routed 3 s TTS stream of 150 chunks of 20 ms kept every chunk and its
 * promises until its end. Here one listener serves the whole call and only the pending pull's
 * resolver is held.
 *
 * Order as with `Promise.race`: an item already available when the signal has aborted still
 * wins over `'aborted'` (it settles first).
 */
export class AbortableNext {
  #aborted = false;
  /** The pending pull's resolver; undefined between pulls. */
  #wake: ((aborted: 'aborted') => void) | undefined;

  constructor(signal: AbortSignal) {
    if (signal.aborted) this.#aborted = true;
    else signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** `iterator.next()`, or `'aborted'` when the signal aborts first. */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T> | 'aborted'> {
    return new Promise<IteratorResult<T> | 'aborted'>((resolve, reject) => {
      iterator.next().then(
        (r) => {
          if (this.#wake === resolve) this.#wake = undefined;
          resolve(r);
        },
        (error: unknown) => {
          if (this.#wake === resolve) this.#wake = undefined;
          reject(error);
        },
      );
      if (this.#aborted) queueMicrotask(() => resolve('aborted'));
      else this.#wake = resolve;
    });
  }

  readonly #onAbort = (): void => {
    this.#aborted = true;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.('aborted');
  };
}
