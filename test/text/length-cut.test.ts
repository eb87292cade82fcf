import { describe, expect, it } from 'vitest';
import { lengthCut } from '../../src/text/length-cut.js';

describe('lengthCut: where text without a sentence end is cut', () => {
  it('does not cut text shorter than the maximum', () => {
    expect(lengthCut('word '.repeat(3), 16)).toBeUndefined();
    expect(lengthCut('', 1)).toBeUndefined();
  });

  it('cuts after the last clause end in the second half, else after the last white space run', () => {
    expect(lengthCut('aaaa, bbbb; cccc dddd', 20)).toBe(12);
    // A clause end in the first half does not count; "1,000" is no clause end.
    expect(lengthCut('aa, bbbbbbb cost 1,000x', 20)).toBe(17);
    expect(lengthCut('aaaaaaaaaaa bbbb   cccc', 20)).toBe(19);
    expect(lengthCut('日本語の文章、日本語の文章、日本', 14)).toBe(14);
  });

  it('cuts text without white space at a grapheme cluster boundary at or before the maximum', () => {
    expect(lengthCut('x'.repeat(30), 20)).toBe(20);
    const flag = '🇫🇷'; // 4 code units
    expect(lengthCut(flag.repeat(10), 22)).toBe(20);
    const accented = 'e\u0301'.repeat(15); // 2 code units each
    expect(lengthCut(accented, 21)).toBe(20);
    // A cluster longer than the window that looks for one: cut at a code point, not in a pair.
    expect(lengthCut(`a${'\u0301'.repeat(99)}`, 50)).toBe(50);
    expect(lengthCut('😀'.repeat(40), 21)).toBe(20);
  });
});
