import { describe, expect, it } from 'vitest';
import { cutBetweenTokens } from '../../src/errors/cut-text.js';

describe('cutBetweenTokens: a provider text cut before redaction never splits a token', () => {
  it('keeps a short text, cuts at a white space as a plain cut, and leaves out a run the cut splits', () => {
    expect(cutBetweenTokens('quota exceeded', 20)).toBe('quota exceeded');
    // The cut falls after "key " (white space): nothing to leave out.
    expect(cutBetweenTokens('bad key sk-abcdef', 9)).toBe('bad key …');
    // The cut would split "sk-abcdef": the whole run is left out.
    expect(cutBetweenTokens('bad key sk-abcdef', 12)).toBe('bad key …');
    // The cut falls at the run's end: the run is kept whole.
    expect(cutBetweenTokens('bad key sk-ab, more', 14)).toBe('bad key sk-ab…');
    // One unbroken run longer than the limit leaves nothing but the ellipsis.
    expect(cutBetweenTokens('x'.repeat(30), 10)).toBe('…');
  });

  it('a long run before the cut is walked back once (no regular expression retried from every start)', () => {
    // With a `[...]+$` replace, this took seconds (time in the square of the first run).
    const text = `${'a'.repeat(65_000)} ${'b'.repeat(1_000)}`;
    expect(cutBetweenTokens(text, 65_536)).toBe(`${'a'.repeat(65_000)} …`);
  });
});
