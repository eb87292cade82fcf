const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

/**
 * The iterator of a voice turn over `events` (the turn's generator). Its `return()` and `throw()`
 * stop the turn at once, even while a `next()` is pending (how frameworks race an iterator
 * against barge-in, as a routed call's `return()` does): an async generator would queue them
 * behind that `next()`, so a turn whose LLM stalls, or whose TTS has nothing yet, would go on
 * running until its next event. `abandon()` ends the turn then (its stages are aborted, `result`
 * rejects with AbortError); the pending `next()` resolves done, and nothing is yielded after
 * `return()`. Called before the first `next()` too, where the generator has not started and
 * would otherwise never settle `result`. While the generator is suspended at an event,
 * `return()` is the generator's own (its `finally` ends the turn as a `break` does).
 */
export class TurnIterator<T> implements AsyncIterator<T, void, undefined> {
  readonly #events: AsyncGenerator<T, void, undefined>;
  readonly #abandon: () => void;
  #started = false;
  #pending = 0;
  #stopped = false;

  constructor(events: AsyncGenerator<T, void, undefined>, abandon: () => void) {
    this.#events = events;
    this.#abandon = abandon;
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.#stopped) return Promise.resolve(DONE);
    this.#started = true;
    this.#pending++;
    return this.#events.next().then(
      (r) => {
        this.#pending--;
        return this.#stopped ? DONE : r;
      },
      (error: unknown) => {
        this.#pending--;
        if (this.#stopped) return DONE;
        throw error;
      },
    );
  }

  async return(): Promise<IteratorResult<T, void>> {
    if (!this.#stopped) {
      this.#stopped = true;
      if (!this.#started || this.#pending > 0) this.#abandon();
    }
    await this.#events.return(undefined).catch(() => {});
    return DONE;
  }

  async throw(error?: unknown): Promise<IteratorResult<T, void>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
