/**
 * The recent outcomes of counted calls, for the error-rate trigger of a circuit breaker: at
 * most `size` of them, and none older than `maxAgeMs`. Times are ms on the breaker's clock.
 */
export class OutcomeWindow {
  readonly #size: number;
  readonly #maxAgeMs: number;
  /** Times of the kept outcomes, oldest first. */
  readonly #times: number[] = [];
  /** Whether each kept outcome was a failure, in the same order. */
  readonly #failed: boolean[] = [];
  #failures = 0;

  /**
   * @param size most outcomes kept (integer >= 1)
   * @param maxAgeMs age in ms after which an outcome drops out
   */
  constructor(size: number, maxAgeMs: number) {
    this.#size = size;
    this.#maxAgeMs = maxAgeMs;
  }

  /** Adds the outcome of a call that ended at `now` (true = failed). */
  push(now: number, failed: boolean): void {
    this.#times.push(now);
    this.#failed.push(failed);
    if (failed) this.#failures++;
    while (this.#times.length > this.#size) this.#dropOldest();
  }

  /** Drops the outcomes older than `maxAgeMs` at `now` (an outcome exactly `maxAgeMs` old stays). */
  prune(now: number): void {
    while (this.#times.length > 0 && now - this.#times[0]! > this.#maxAgeMs) this.#dropOldest();
  }

  /** Number of kept outcomes (call {@link prune} first for an up-to-date count). */
  get calls(): number {
    return this.#times.length;
  }

  /** Number of kept failures. */
  get failures(): number {
    return this.#failures;
  }

  /** failures / calls in [0, 1]; 0 when empty. */
  get rate(): number {
    return this.#times.length === 0 ? 0 : this.#failures / this.#times.length;
  }

  /** Forgets every outcome. */
  clear(): void {
    this.#times.length = 0;
    this.#failed.length = 0;
    this.#failures = 0;
  }

  #dropOldest(): void {
    this.#times.shift();
    if (this.#failed.shift()) this.#failures--;
  }
}
