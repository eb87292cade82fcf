/** The answer of a pass that has ended. */
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * A caller's streamed input (text pieces, e.g. LLM tokens) read once, and kept while it may have
 * to be sent again: the adapter sends it on a socket that may turn out dead before the server
 * answered anything (a warm socket closed under the request), and then gives it to a fresh
 * socket in full, followed by the rest of the input as it arrives. Nothing is copied: the items
 * pulled from the caller are held (references) until {@link settle}, at most what was pulled
 * before the server's first answer.
 *
 * The caller's iterator is read by one pull at a time whatever the passes do, so an item pulled
 * for a socket that died before sending it is kept and given to the next pass, never lost nor
 * given twice. An error of the input is kept too: every pass ends by throwing it. A pass's
 * `return()` ends only that pass; the caller's iterator is closed by {@link close}.
 */
export class ReplayableInput<T> {
  readonly #iterator: AsyncIterator<T>;
  /** The items pulled and not yet released; `#kept[0]` is item number `#base`. */
  #kept: T[] = [];
  #base = 0;
  /** The next item the current pass reads (absolute). */
  #at = 0;
  #keeping = true;
  #pass = 0;
  #pull: Promise<void> | undefined;
  /** The input ended (`{}`) or failed (`{ error }`). */
  #end: { error?: unknown } | undefined;
  #closed = false;

  constructor(input: AsyncIterable<T>) {
    this.#iterator = input[Symbol.asyncIterator]();
  }

  /** True while every item pulled so far is kept: a new {@link pass} starts from the first. */
  get replayable(): boolean {
    return this.#keeping;
  }

  /**
   * No replay will be needed (the server answered): items read by the current pass are released
   * and later ones are not kept. Items kept but not yet read are still given to the current
   * pass first. Idempotent.
   */
  settle(): void {
    if (!this.#keeping) return;
    this.#keeping = false;
    this.#release();
  }

  /**
   * A pass over the input for one socket, ending every earlier pass (its `next()` answers done):
   * from the first item while {@link replayable}, else from where the last pass stopped; the
   * items kept, then the rest of the input as it arrives.
   */
  pass(): AsyncIterable<T> {
    const pass = ++this.#pass;
    if (this.#keeping) this.#at = 0;
    const iterator: AsyncIterator<T> = {
      next: () => this.#next(pass),
      return: async () => {
        if (this.#pass === pass) this.#pass++;
        return DONE;
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  /** Stops reading the input: `return()`s the caller's iterator unless it ended. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pass++;
    this.#kept = [];
    if (this.#end) return;
    try {
      void Promise.resolve(this.#iterator.return?.()).catch(() => {});
    } catch {
      // An iterator whose return() throws has nothing more to release.
    }
  }

  async #next(pass: number): Promise<IteratorResult<T>> {
    for (;;) {
      if (pass !== this.#pass) return DONE;
      const index = this.#at - this.#base;
      if (index < this.#kept.length) {
        const value = this.#kept[index]!;
        this.#at++;
        if (!this.#keeping) this.#release();
        return { value, done: false };
      }
      if (this.#end) {
        if ('error' in this.#end) throw this.#end.error;
        return DONE;
      }
      await this.#pullOne();
    }
  }

  /** Pulls the caller's next item into `#kept` (one pull at a time, shared by every pass). */
  #pullOne(): Promise<void> {
    if (this.#pull) return this.#pull;
    let step: Promise<IteratorResult<T>>;
    try {
      step = Promise.resolve(this.#iterator.next());
    } catch (error) {
      step = Promise.reject(error);
    }
    this.#pull = step.then(
      (step) => {
        this.#pull = undefined;
        if (this.#closed) return;
        if (step.done) this.#end = {};
        else this.#kept.push(step.value);
      },
      (error: unknown) => {
        this.#pull = undefined;
        this.#end = { error };
      },
    );
    return this.#pull;
  }

  /** Drops the items the current pass has read. */
  #release(): void {
    const read = this.#at - this.#base;
    if (read <= 0) return;
    this.#kept.splice(0, read);
    this.#base = this.#at;
  }
}
