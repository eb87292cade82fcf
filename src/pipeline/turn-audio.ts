const STOP = Symbol('stop');

/** How a turn's reading of the caller's audio ended. */
type Outcome = 'stopped' | 'ended' | 'returned' | 'unread';

/**
 * The caller's audio as one voice turn reads it: {@link TurnAudio.read} is the STT stage's
 * input, which the turn ends at the STT provider's endpoint ({@link TurnAudio.stop}) while the
 * caller's iterator goes on (a microphone kept open). The caller's iterator is then not
 * returned: {@link TurnAudio.remaining} goes on from where the turn stopped, the read that was in
 * flight at the endpoint first, so no chunk is lost. When the turn ends otherwise (barge-in, a
 * failure) before its endpoint, the caller's iterator is returned, as a `for await` loop would.
 */
export class TurnAudio<T> {
  readonly #source: AsyncIterable<T>;
  #iterator: AsyncIterator<T> | undefined;
  /** A read of the caller's iterator the turn started and did not use (in flight when it stopped). */
  #held: Promise<IteratorResult<T>> | undefined;
  #stopped = false;
  #wakeStop!: (value: typeof STOP) => void;
  readonly #stopSignal = new Promise<typeof STOP>((resolve) => {
    this.#wakeStop = resolve;
  });
  #outcome: Outcome | undefined;
  #wakeDone!: () => void;
  readonly #done = new Promise<void>((resolve) => {
    this.#wakeDone = resolve;
  });

  constructor(source: AsyncIterable<T>) {
    this.#source = source;
  }

  /** Whether {@link TurnAudio.stop} stopped the reading. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * The caller's chunks, until the caller's audio ends (then `ended()` is called) or
   * {@link TurnAudio.stop} is called. Read once.
   */
  async *read(ended: () => void): AsyncGenerator<T, void, undefined> {
    if (this.#outcome !== undefined) return;
    const iterator = this.#source[Symbol.asyncIterator]();
    this.#iterator = iterator;
    let pending: Promise<IteratorResult<T>> | undefined;
    let outcome: Outcome = 'returned';
    try {
      for (;;) {
        if (this.#stopped) {
          outcome = 'stopped';
          return;
        }
        pending ??= iterator.next();
        const next = await Promise.race([pending, this.#stopSignal]);
        if (next === STOP) {
          // Kept for `remaining()`: Promise.race has handled a rejection of it meanwhile.
          this.#held = pending;
          outcome = 'stopped';
          return;
        }
        pending = undefined;
        if (next.done) {
          outcome = 'ended';
          ended();
          return;
        }
        yield next.value;
      }
    } catch (error) {
      outcome = 'ended';
      throw error;
    } finally {
      this.#outcome = outcome;
      this.#wakeDone();
      // Returned before the endpoint (barge-in, a failure): the caller's iterator is returned.
      if (outcome === 'returned') await iterator.return?.();
    }
  }

  /**
   * Stops reading at the end of speech: `read()` ends at once; the caller's iterator is left
   * open. Returns false, and does nothing, when reading is already over (the caller's audio
   * ended: all of it is this turn's speech) or was never started.
   */
  stop(): boolean {
    if (this.#stopped) return true;
    if (this.#outcome !== undefined || this.#iterator === undefined) return false;
    this.#stopped = true;
    this.#wakeStop(STOP);
    return true;
  }

  /** The turn is over: if it never read the audio, all of it is remaining. */
  finish(): void {
    if (this.#outcome !== undefined || this.#iterator !== undefined) return;
    this.#outcome = 'unread';
    this.#wakeDone();
  }

  /**
   * What the turn did not consume of the caller's audio, once its reading is over: after a stop,
   * the read in flight then (if any) and the rest of the caller's iterator; the whole source
   * when the turn never read it; nothing when the audio ended or the iterator was returned.
   */
  remaining(): AsyncIterable<T> {
    return { [Symbol.asyncIterator]: () => this.#rest() };
  }

  async *#rest(): AsyncGenerator<T, void, undefined> {
    await this.#done;
    if (this.#outcome === 'unread') {
      yield* this.#source;
      return;
    }
    const iterator = this.#iterator;
    if (this.#outcome !== 'stopped' || !iterator) return;
    const held = this.#held;
    this.#held = undefined;
    let done = false;
    try {
      if (held) {
        const first = await held;
        if (first.done) {
          done = true;
          return;
        }
        yield first.value;
      }
      for (;;) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } catch (error) {
      done = true;
      throw error;
    } finally {
      if (!done) await iterator.return?.();
    }
  }
}
