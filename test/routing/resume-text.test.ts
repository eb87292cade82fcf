import { describe, expect, it } from 'vitest';
import { remainingText } from '../../src/routing/resume-text.js';

const words = [
  { word: 'Your', startMs: 0, endMs: 200 },
  { word: 'table', startMs: 200, endMs: 500 },
  { word: 'is', startMs: 500, endMs: 600 },
  { word: 'booked.', startMs: 600, endMs: 1000 },
];

describe('remainingText (TTS resume narrowed by word timestamps)', () => {
  it('starts after the last word fully delivered', () => {
    expect(remainingText('Your table is booked.', words, 550)).toBe('is booked.');
    expect(remainingText('Your table is booked.', words, 600)).toBe('booked.');
  });
  it('gives the whole sentence when no word was fully delivered, and nothing when all were', () => {
    expect(remainingText('Your table is booked.', words, 150)).toBe('Your table is booked.');
    expect(remainingText('Your table is booked.', words, 1000)).toBe('');
  });
  it('gives the whole sentence when the timestamps do not match the text', () => {
    expect(remainingText('Something else entirely.', words, 550)).toBe('Something else entirely.');
  });
  it('drops the punctuation and space left at the cut', () => {
    const w = [
      { word: 'Hello', startMs: 0, endMs: 300 },
      { word: 'there', startMs: 300, endMs: 600 },
    ];
    expect(remainingText('Hello, there', w, 300)).toBe('there');
  });
});
