import type { WordTiming } from '../providers/types.js';

/**
 * The text still to speak of a sentence cut mid-way: everything after the last word whose audio
 * ended within what the caller received (`deliveredMs`, ms from the start of that sentence's
 * audio), by the provider's word timestamps. Words are found in `sentence` in order; when the
 * timestamps cannot be matched to the text, or no word was fully delivered, the whole sentence
 * is returned (the safe choice: a word may be heard twice, none is lost).
 */
export function remainingText(sentence: string, words: readonly WordTiming[], deliveredMs: number): string {
  let cursor = 0;
  let cut = 0;
  for (const w of words) {
    const word = w.word.trim();
    if (!word) continue;
    const at = sentence.indexOf(word, cursor);
    if (at < 0) return sentence;
    cursor = at + word.length;
    if (w.endMs <= deliveredMs) cut = cursor;
    else break;
  }
  return cut === 0 ? sentence : sentence.slice(cut).replace(/^[\s,;:]+/, '');
}
