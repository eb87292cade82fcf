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

  it('releases a sentence the text so far ends for good without waiting for the next token', () => {
    const s = new SentenceSplitter('en');
    expect(s.push('Hello there. ')).toEqual(['Hello there. ']);
    expect(s.push('Let me check that for you.')).toEqual(['Let me check that for you.']);
    expect(s.push(' See Dr.')).toEqual([]);
    expect(s.push(' who')).toEqual([]);
    expect(s.push(' knows')).toEqual([]);
    expect(s.push('\n')).toEqual([' See Dr. who knows\n']);
    expect(s.push('It costs 3.')).toEqual([]);
    expect(s.push('5 now')).toEqual([]);
    expect(s.end()).toEqual(['It costs 3.5 now']);
  });

  it('gives the text back exactly when the sentences are joined, whatever the token boundaries', () => {
    const text = 'One. Two three! Four? Five.';
    for (const size of [1, 2, 3, 7]) {
      const s = new SentenceSplitter('en');
      const out: string[] = [];
      for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
      out.push(...s.end());
      expect(out.join('')).toBe(text);
      // A sentence is released at its punctuation when that comes last in a token: the white
      // space after it then starts the next one.
      expect(out.map((x) => x.trim())).toEqual(['One.', 'Two three!', 'Four?', 'Five.']);
    }
  });

  it('holds a boundary until a letter follows it when not early, and gives it at the end of the text', () => {
    const s = new SentenceSplitter('en', { early: false });
    expect(s.push('Hello there.')).toEqual([]);
    expect(s.push(' 123')).toEqual([]);
    expect(s.push(' and more. Next')).toEqual(['Hello there. 123 and more. ']);
    expect(s.push('. 42')).toEqual([]);
    expect(s.end()).toEqual(['Next. ', '42']);
  });

  it('joins a segment that ends at an abbreviation or initial to the next', () => {
    const s = new SentenceSplitter('en');
    expect(s.push('Dr. Smith and J. R. R. Tolkien met Mr. Jones. He ')).toEqual([
      'Dr. Smith and J. R. R. Tolkien met Mr. Jones. ',
    ]);
    expect(s.end()).toEqual(['He ']);
  });
});
