/**
 * A queue between producers (the turn's stages) and one consumer (the caller's loop): items
 * in push order, then the end or the first error. Unbounded: a reply's audio arrives faster
 * than real time and is bounded by the reply.
 */
export class EventQueue<T> {
  readonly #items: T[] = [];
  #ended = false;
  #error: { error: unknown; afterItems: boolean } | undefined;
  #wake: (() => void) | undefined;

  push(item: T): void {
    if (this.#ended || this.#error) return;
    this.#items.push(item);
    this.#notify();
  }

  end(): void {
    this.#ended = true;
    this.#notify();
  }

  /**
   * Fails the queue: the consumer gets `error` at once, before any item still queued, or with
   * `afterItems` once it has had them. Later items and failures are ignored.
   */
  fail(error: unknown, afterItems = false): void {
    if (this.#error) return;
    this.#error = { error, afterItems };
    if (!afterItems) this.#items.length = 0;
    this.#notify();
  }

  async *drain(): AsyncGenerator<T, void, undefined> {
    for (;;) {
      if (this.#error && !this.#error.afterItems) throw this.#error.error;
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#error) throw this.#error.error;
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
