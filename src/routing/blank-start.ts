import { nextOf, type Takeable, takeableOf } from '../internal/takeable.js';
import type { ChatEvent } from '../types/chat.js';

/**
 * A chat stream whose leading white-space-only text deltas are held back until something
 * real follows: text with a non-white-space character, or a tool call (then they pass, in
 * order, before it). When the reply finishes (or ends) first, they are dropped, so the first
 * item the router sees is the `finish`: a reply of white space only ("\n\n", then stop) is an
 * empty answer (a failure and a fallback; it never wins a hedged race), not a success.
 * The iterator is {@link Takeable} (the adapter's own iterator, or a puller of it, below): once
 * something real has passed, each item is a plain call through to the adapter's iterator.
 */
export function blankStartHeld(events: AsyncIterable<ChatEvent>): AsyncIterable<ChatEvent> {
  return {
    [Symbol.asyncIterator]: () => new BlankStartHeld(takeableOf(events[Symbol.asyncIterator]())),
  };
}

class BlankStartHeld implements Takeable<ChatEvent> {
  /** Items ready to hand out (held white space, then what followed it); made only when needed. */
  #ready: ChatEvent[] | undefined;
  /** Leading white-space deltas held so far; made only when needed. */
  #held: ChatEvent[] | undefined;
  #passing = false;

  constructor(readonly inner: Takeable<ChatEvent>) {}

  take(): IteratorResult<ChatEvent> | undefined {
    const item = this.#ready?.shift();
    if (item !== undefined) return { value: item, done: false };
    if (this.#passing) return this.inner.take();
    for (;;) {
      const r = this.inner.take();
      if (r === undefined) return undefined;
      if (r.done) {
        this.#passing = true;
        return r;
      }
      const e = r.value;
      if (e.type === 'text-delta' && !/\S/.test(e.text)) {
        this.#held ??= [];
        this.#held.push(e);
        continue;
      }
      this.#passing = true;
      // A finish after white space only: the white space is no answer, the finish shows it.
      const held = this.#held;
      this.#held = undefined;
      // The common case: nothing held, the item passes as it came.
      if (e.type === 'finish' || held === undefined) return r;
      this.#ready = [...held.slice(1), e];
      return { value: held[0]!, done: false };
    }
  }

  onReadable(wake: () => void): void {
    if (this.#ready !== undefined && this.#ready.length > 0) queueMicrotask(wake);
    else this.inner.onReadable(wake);
  }

  next(): Promise<IteratorResult<ChatEvent>> {
    return nextOf(this);
  }

  return(value?: unknown): Promise<IteratorResult<ChatEvent>> {
    return this.inner.return
      ? this.inner.return(value)
      : Promise.resolve({ value: undefined, done: true } as IteratorResult<ChatEvent>);
  }
}
