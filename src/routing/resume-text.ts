import type { WordTiming } from '../providers/types.js';

/**
 * The text still to speak of a sentence cut mid-way: everything after the last word whose audio
 * ended within what the caller received (`deliveredMs`, ms from the start of that sentence's
 * audio), by the provider's word timestamps. Words are found in `sentence` in order; when the
 * timestamps cannot be matched to the text, or no word was fully delivered, the whole sentence
 * is returned (the safe choice: a word may be heard twice, none is lost).
 */
export function remainingText(sentence: string, words: readonly WordTiming[], deliveredMs: number): string {
  const { end, matched } = heardTo(sentence, words, deliveredMs);
  return !matched || end === 0 ? sentence : sentence.slice(end).replace(/^[\s,;:]+/, '');
}

/**
 * How far into `text` the words heard within `deliveredMs` reach: `end`, the index just after
 * the last word whose audio ended by then (0: none). Words are found in `text` in order, up to
 * the first one not yet heard; `matched` is false when one of those could not be found (then
 * `end` is where the words found before it reach).
 */
export function heardTo(
  text: string,
  words: readonly WordTiming[],
  deliveredMs: number,
): { end: number; matched: boolean } {
  let end = 0;
  for (const w of words) {
    const word = w.word.trim();
    if (!word) continue;
    const at = text.indexOf(word, end);
    if (at < 0) return { end, matched: false };
    if (w.endMs > deliveredMs) break;
    end = at + word.length;
  }
  return { end, matched: true };
}
