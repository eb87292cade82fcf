import type { ChatEvent } from '../../types/chat.js';

/**
 * The continuation of a prefill whose trailing white space `trimmed` was cut before it was sent
 * (the Messages API refuses a prefill that ends in white space): the model then begins its text
 * with that white space again, which the caller already has. The longest start of the text that
 * repeats `trimmed` is dropped, across deltas; the first character that differs, or a tool call,
 * ends the check, and the rest passes as it is. E.g. after `"def f():\n"` sent as `"def f():"`,
 * a continuation `"\n    return 1"` reaches the caller as `"    return 1"`; after `"one.\n\n"`,
 * `"\n- two"` as `"- two"`.
 */
export async function* withoutRepeatedSeam(
  events: AsyncIterable<ChatEvent>,
  trimmed: string,
): AsyncGenerator<ChatEvent> {
  let at = 0;
  for await (const e of events) {
    if (at < trimmed.length && e.type === 'text-delta') {
      let i = 0;
      while (i < e.text.length && at < trimmed.length && e.text[i] === trimmed[at]) {
        i++;
        at++;
      }
      // A character that differs: nothing more is dropped.
      if (i < e.text.length) at = trimmed.length;
      if (i === e.text.length) continue;
      yield i === 0 ? e : { ...e, text: e.text.slice(i) };
      continue;
    }
    if (e.type === 'tool-call') at = trimmed.length;
    yield e;
  }
}
