/**
 * A one-reader async queue: producers `push` items or `fail` it with an error; the reader
 * `take`s them in order. Once failed, `take` rejects with the first error after the items
 * pushed before it, and later pushes are dropped. Used to hand one websocket context's
 * messages, deadlines and aborts to the generator that reads them, at one waiting point.
 */
export class Inbox<T> {
  private readonly items: T[] = [];
  private head = 0;
  private failure: { error: unknown } | undefined;
  private waiter: { resolve: (item: T) => void; reject: (error: unknown) => void } | undefined;

  /** Adds an item (dropped once the inbox failed). */
  push(item: T): void {
    if (this.failure) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter.resolve(item);
      return;
    }
    this.items.push(item);
  }

  /** Ends the inbox with `error` (the first call wins). */
  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    const waiter = this.waiter;
    if (waiter && this.head === this.items.length) {
      this.waiter = undefined;
      waiter.reject(error);
    }
  }

  /** True once `fail` was called. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The next item; rejects with the failure once the items before it are taken. One reader only. */
  take(): Promise<T> {
    if (this.head < this.items.length) {
      const item = this.items[this.head] as T;
      this.head++;
      if (this.head === this.items.length) {
        this.items.length = 0;
        this.head = 0;
      }
      return Promise.resolve(item);
    }
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise<T>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}
