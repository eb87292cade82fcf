import { describe, expect, it } from 'vitest';
import { SentenceSplitter } from '../../src/text/sentence-splitter.js';

describe('SentenceSplitter', () => {
  it('releases a sentence once text after its boundary arrives, and the rest at the end', () => {
    const s = new SentenceSplitter('en');
    expect(s.push('Hello there')).toEqual([]);
    expect(s.push(', friend. How')).toEqual(['Hello there, friend. ']);
    expect(s.push(' are you? Fine')).toEqual(['How are you? ']);
    expect(s.end()).toEqual(['Fine']);
    expect(s.end()).toEqual([]);
  });

  it('gives the text back exactly when the sentences are joined, whatever the token boundaries', () => {
    const text = 'One. Two three! Four? Five.';
    for (const size of [1, 2, 3, 7]) {
      const s = new SentenceSplitter('en');
      const out: string[] = [];
      for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
      out.push(...s.end());
      expect(out.join('')).toBe(text);
      expect(out).toEqual(['One. ', 'Two three! ', 'Four? ', 'Five.']);
    }
  });
});
