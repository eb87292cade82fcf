import type { ChatEvent } from '../types/chat.js';

/**
 * A chat stream whose leading white-space-only text deltas are held back until something
 * real follows: text with a non-white-space character, or a tool call (then they pass, in
 * order, before it). When the reply finishes (or ends) first, they are dropped, so the first
 * item the router sees is the `finish`: a reply of white space only ("\n\n", then stop) is an
 * empty answer (a failure and a fallback; it never wins a hedged race), not a success.
 * Once something real has passed, every `next()` goes straight to the provider's iterator.
 */
export function blankStartHeld(events: AsyncIterable<ChatEvent>): AsyncIterable<ChatEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<ChatEvent> {
      const inner = events[Symbol.asyncIterator]();
      /** Items ready to hand out, before passing through. */
      const ready: ChatEvent[] = [];
      let passing = false;
      const next = async (): Promise<IteratorResult<ChatEvent>> => {
        const item = ready.shift();
        if (item !== undefined) return { value: item, done: false };
        if (passing) return inner.next();
        const held: ChatEvent[] = [];
        for (;;) {
          const r = await inner.next();
          if (r.done) {
            passing = true;
            return r;
          }
          const e = r.value;
          if (e.type === 'text-delta' && !/\S/.test(e.text)) {
            held.push(e);
            continue;
          }
          passing = true;
          // A finish after white space only: the white space is no answer, the finish shows it.
          if (e.type === 'finish') return r;
          ready.push(...held);
          ready.push(e);
          return { value: ready.shift() as ChatEvent, done: false };
        }
      };
      return {
        next,
        return: (value?: unknown) =>
          inner.return ? inner.return(value) : Promise.resolve({ value: undefined, done: true }),
        ...(inner.throw ? { throw: (error?: unknown) => inner.throw!(error) } : {}),
      };
    },
  };
}
