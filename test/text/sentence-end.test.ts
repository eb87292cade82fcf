import { describe, expect, it } from 'vitest';
import { endsSentence } from '../../src/text/sentence-end.js';

describe('endsSentence: a sentence complete with what has arrived', () => {
  it('is complete at terminal punctuation after a word, with or without white space yet, a line break, or a full-width stop', () => {
    for (const t of [
      'Hello there. ',
      'Let me check that for you. ',
      'Sure! ',
      'Really?! ',
      'Okay.\n',
      'A title\n',
      'It was in 2023. ',
      'Wait... ',
      'He said "Go." ',
      'Call me (later.) ',
      'No. ',
      'Done.  ',
      'Hi.\u00a0',
      '好的。',
      '好吗？',
      'Let me check that for you.',
      'Sure!',
      'Really?',
      'He said "Go."',
      'Wait...',
      'Hello there, my friend 🙂. ',
      'See the list (above). ',
      'Price: 5 €. ',
    ])
      expect([t, endsSentence(t)]).toEqual([t, true]);
  });

  it('waits after an abbreviation, an initial, a dotted word, a number not yet followed by white space, or no terminal punctuation', () => {
    for (const t of [
      'Hello there',
      'It costs 3.',
      'Go to www.example.',
      'Hello there, ',
      'See Dr. ',
      'See Dr.',
      'Fruit, apples etc. ',
      'Like e.g. ',
      'Made in the U.S. ',
      'J. ',
      'Wait… ',
      'Hi ',
      '',
      'Hello there, my friend 🙂.',
      '. ',
    ])
      expect([t, endsSentence(t)]).toEqual([t, false]);
  });

  it('waits inside a web or email address or a path with nothing after it yet; white space after it ends it', () => {
    for (const t of [
      'See https://www.',
      'See https://acme.io/help?',
      'Write to support@acme.',
      'Go to www.',
      'Open docs/setup.',
    ])
      expect([t, endsSentence(t)]).toEqual([t, false]);
    for (const t of ['Did you try https://acme.io/help? ', 'Write to support@acme.io! ', 'Open docs/setup! '])
      expect([t, endsSentence(t)]).toEqual([t, true]);
  });
});
