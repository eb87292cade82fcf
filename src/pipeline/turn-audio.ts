const STOP = Symbol('stop');
/** The reader of {@link TurnAudio.read} was returned (or thrown into) while its read was in flight. */
const RETURNED = Symbol('returned');

/**
 * The key of a {@link TurnAudio.remaining} iterable's hand-off: the next turn's TurnAudio takes
 * the caller's iterator (and the read in flight) straight from the previous turn instead of
 * reading through it, so a conversation of many turns adds no layer per turn to each chunk.
 */
const HANDOFF = Symbol('TurnAudio.handoff');

/** What a finished turn hands to the next one: the caller's source, or its open iterator, or nothing. */
type Handoff<T> =
  | { kind: 'source'; source: AsyncIterable<T> }
  | { kind: 'iterator'; iterator: AsyncIterator<T>; held: Promise<IteratorResult<T>> | undefined }
  | { kind: 'empty' };

interface HandsOff<T> extends AsyncIterable<T> {
  [HANDOFF](): Handoff<T> | undefined;
}

function handoffOf<T>(source: AsyncIterable<T>): Handoff<T> | undefined {
  return HANDOFF in source ? (source as HandsOff<T>)[HANDOFF]() : undefined;
}

const EMPTY: AsyncIterator<never> = { next: async () => ({ done: true, value: undefined }) };

/** What {@link TurnAudio.read} returns: an iterator whose `return()` and `throw()` end a read in flight. */
export type AudioReader<T> = AsyncIterableIterator<T> & Required<Pick<AsyncIterator<T>, 'return' | 'throw'>>;

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
  /**
   * Ends the wait for the read in flight, when {@link TurnAudio.stop} comes during it, or the
   * reader's `return()` (the STT stage stopped reading: barge-in, a failure).
   */
  #wake: ((value: typeof STOP | typeof RETURNED) => void) | undefined;
  #outcome: Outcome | undefined;
  /** The rest of the audio was taken, by {@link TurnAudio.remaining} or by the next turn. */
  #restTaken = false;
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
   *
   * Its `return()` (and `throw()`) ends a read in flight at once, as `return()` of a routed
   * call does: an async generator would queue it behind the caller's pending `next()`, so a
   * barge-in while a muted microphone yields nothing would neither return the caller's iterator
   * nor end `remaining()` until the microphone's next chunk.
   */
  read(ended: () => void): AudioReader<T> {
    const reading = this.#read(ended);
    const interrupt = () => this.#wake?.(RETURNED);
    return {
      next: () => reading.next(),
      return: (value?: unknown) => {
        interrupt();
        return reading.return(value as undefined);
      },
      throw: (error?: unknown) => {
        interrupt();
        return reading.throw(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  async *#read(ended: () => void): AsyncGenerator<T, void, undefined> {
    if (this.#outcome !== undefined) return;
    let pending: Promise<IteratorResult<T>> | undefined;
    let iterator: AsyncIterator<T> | undefined;
    // The previous turn's remaining audio: take its iterator over rather than read through it.
    let source = this.#source;
    while (iterator === undefined) {
      const handoff = handoffOf(source);
      if (handoff === undefined) iterator = source[Symbol.asyncIterator]();
      else if (handoff.kind === 'source') source = handoff.source;
      else if (handoff.kind === 'empty') iterator = EMPTY;
      else {
        iterator = handoff.iterator;
        pending = handoff.held;
      }
    }
    this.#iterator = iterator;
    let outcome: Outcome = 'returned';
    try {
      for (;;) {
        if (this.#stopped) {
          outcome = 'stopped';
          return;
        }
        pending ??= iterator.next();
        const read: Promise<IteratorResult<T>> = pending;
        // One promise per chunk, not a race against one long-lived stop promise (each race would
        // leave a reaction on it until the turn ends: a long turn would hold thousands).
        const next = await new Promise<IteratorResult<T> | typeof STOP | typeof RETURNED>(
          (resolve, reject) => {
            this.#wake = resolve;
            read.then(resolve, reject);
          },
        );
        this.#wake = undefined;
        // Returned while the caller's next() was pending: that read is the caller's (its
        // iterator is returned below, as a `for await` loop left early would).
        if (next === RETURNED) return;
        if (next === STOP) {
          // Kept for `remaining()`: the `then` above handles a rejection of it meanwhile.
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
    this.#wake?.(STOP);
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
    const remaining: HandsOff<T> = {
      [Symbol.asyncIterator]: () => this.#rest(),
      [HANDOFF]: () => this.#handoff(),
    };
    return remaining;
  }

  /**
   * The rest of the caller's audio, handed to the next turn's TurnAudio once this turn's reading
   * is over (undefined before, or when the rest was already taken: the next turn then reads
   * through {@link remaining}). After it, {@link remaining} yields nothing.
   */
  #handoff(): Handoff<T> | undefined {
    if (this.#outcome === undefined || this.#restTaken) return undefined;
    this.#restTaken = true;
    if (this.#outcome === 'unread') return { kind: 'source', source: this.#source };
    if (this.#outcome !== 'stopped' || !this.#iterator) return { kind: 'empty' };
    const held = this.#held;
    this.#held = undefined;
    return { kind: 'iterator', iterator: this.#iterator, held };
  }

  async *#rest(): AsyncGenerator<T, void, undefined> {
    await this.#done;
    if (this.#restTaken) return;
    this.#restTaken = true;
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
