/**
 * A sentence of a text given whole is never longer than MAX_SENTENCE_LENGTH (1,000 characters),
 * although the text is read in windows of 256 characters: the cut is looked for within the
 * first 1,000 characters, however much text has been read past them (before, a clause end at
 * 1,150 let a 1,152-character sentence through). The same bound holds for any maximum.
 */
import { describe, expect, it } from 'vitest';
import { lengthCut, MAX_SENTENCE_LENGTH } from '../../src/text/length-cut.js';
import { SentenceSplitter } from '../../src/text/sentence-splitter.js';

/** `text` pushed in windows of `size` characters, then ended: the sentences. */
function split(text: string, size: number): string[] {
  const splitter = new SentenceSplitter('en', { early: false });
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(...splitter.push(text.slice(at, at + size)));
  out.push(...splitter.end());
  return out;
}

describe('no piece is longer than its maximum', () => {
  it('a 1,200-character sentence with a clause end at 1,150, read 256 at a time: cut at a word boundary by 1,000', () => {
    // 1,150 characters of "word " (ends with a space), ", " then 48 more: one sentence.
    const text = `${'word '.repeat(229)}word, ${'x'.repeat(43)} end.`;
    expect(MAX_SENTENCE_LENGTH).toBe(1000);
    const sentences = split(text, 256);
    expect(sentences.map((s) => s.length)).toEqual([1000, text.length - 1000]);
    expect(sentences.join('')).toBe(text);
  });

  it('lengthCut never returns a cut past the maximum, whatever follows it', () => {
    expect(lengthCut(`${'a'.repeat(15)} bbbb, cccc`, 20)).toBe(16);
    expect(lengthCut(`${'ab '.repeat(10)}${'z'.repeat(40)}`, 20)).toBe(18);
  });
});
