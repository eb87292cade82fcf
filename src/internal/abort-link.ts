/**
 * What voxroute's own code reads of an abort signal: whether it fired, why, and one listener at
 * a time for the `'abort'` event. An `AbortSignal` is one; so is an {@link AbortLink}.
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The abort scope of a routed call or attempt, without an `AbortSignal` unless one is asked
 * for. On Node.js 20 an `AbortSignal` costs about 5 µs to create and 1 to 2 µs per listener
 * added or removed (it is an EventTarget); a call of the router made one and listened on it
 * at least once, some 10 % of what the router adds to time to first chunk. Node.js 22 made the
 * signal much cheaper; this stays cheaper on both (see docs/benchmarks.md, session 12).
 *
 * Listeners run once, in the order added, when {@link abort} is first called (one removed by
 * an earlier one is not called); one that throws does not stop the others (its error is rethrown in a microtask, as an EventTarget reports
 * it). {@link signal} is a real `AbortSignal` that follows this link, made on first read, for
 * code that hands it to another library.
 */
export class AbortLink implements AbortSource {
  aborted = false;
  reason: unknown = undefined;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  /**
   * Aborts: sets {@link reason} (by default a DOMException named `AbortError`, as
   * `AbortController.abort()` does) and calls the listeners. Later calls do nothing.
   */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      // One removed by an earlier listener is not called (as an EventTarget does).
      if (!listeners.includes(listener)) continue;
      try {
        listener();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.#listeners = undefined;
  }

  /** Calls `listener` once on abort (not when it already happened, as an EventTarget). */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    const listeners = this.#listeners;
    if (listeners === undefined) this.#listeners = [listener];
    else if (!listeners.includes(listener)) listeners.push(listener);
  }

  /** Stops calling `listener`. */
  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    const i = listeners.indexOf(listener);
    if (i !== -1) listeners.splice(i, 1);
  }

  /** An `AbortSignal` that aborts with this link (with its reason), made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.aborted) controller.abort(this.reason);
      else this.addEventListener('abort', () => controller.abort(this.reason));
    }
    return this.#controller.signal;
  }
}
