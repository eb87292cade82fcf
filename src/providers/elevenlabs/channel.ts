/**
 * A one-reader queue between producers (the socket reader) and the adapter's generator:
 * `push` values, then `end()` or `fail(error)`; the first of `end`/`fail` wins and later
 * calls are ignored. `next()` resolves with the next value, or the end, or rejects with the
 * failure once every value pushed before it has been taken.
 */
export class Channel<T> {
  private readonly values: T[] = [];
  private waiter:
    | { resolve(result: IteratorResult<T, undefined>): void; reject(error: unknown): void }
    | undefined;
  private outcome: { error?: unknown } | undefined;

  /** True once `end` or `fail` was called. */
  get closed(): boolean {
    return this.outcome !== undefined;
  }

  push(value: T): void {
    if (this.outcome) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ value, done: false });
    } else this.values.push(value);
  }

  end(): void {
    this.settle({});
  }

  fail(error: unknown): void {
    this.settle({ error });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.values.length > 0) return Promise.resolve({ value: this.values.shift()!, done: false });
    if (this.outcome) {
      return 'error' in this.outcome
        ? Promise.reject(this.outcome.error)
        : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  private settle(outcome: { error?: unknown }): void {
    if (this.outcome) return;
    this.outcome = outcome;
    if (this.waiter && this.values.length === 0) {
      const waiter = this.waiter;
      this.waiter = undefined;
      if ('error' in outcome) waiter.reject(outcome.error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }
}
