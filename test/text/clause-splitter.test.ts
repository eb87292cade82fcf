import { describe, expect, it } from 'vitest';
import { ClauseSplitter } from '../../src/text/clause-splitter.js';

function run(tokens: string[], options?: ConstructorParameters<typeof ClauseSplitter>[0]) {
  const s = new ClauseSplitter(options);
  const steps = tokens.map((t) => s.push(t));
  return { steps, end: s.end() };
}

describe('ClauseSplitter', () => {
  it('releases the first clause at its comma, and a sentence at its full stop, before the next token', () => {
    const { steps, end } = run([
      'Sure thing',
      ',',
      ' I',
      ' can',
      ' book',
      ' that',
      ' for',
      ' you.',
      ' What',
      ' time?',
    ]);
    expect(steps).toEqual([[], ['Sure thing,'], [], [], [], [], [], [' I can book that for you.'], [], []]);
    expect(end).toEqual([' What time?']);
  });

  it('joins clauses shorter than the minimum to the next boundary', () => {
    const { steps, end } = run(['Yes, ok, the table for two, at eight, is booked. Thanks.']);
    expect(steps).toEqual([['Yes, ok, ', 'the table for two, at eight, ']]);
    expect(end).toEqual(['is booked. Thanks.']);
  });

  it('cuts at a sentence end without a clause mark, and not inside numbers', () => {
    const { steps, end } = run(['It costs 1,000 dollars. ', 'Do you want it?']);
    expect(steps).toEqual([['It costs 1,000 dollars. '], []]);
    expect(end).toEqual(['Do you want it?']);
  });

  it('gives the text back exactly when the chunks are joined', () => {
    const text = 'Well — that depends: on the day, the time; and the weather. Then we go.  ';
    const s = new ClauseSplitter();
    const out: string[] = [];
    for (const ch of text) out.push(...s.push(ch));
    out.push(...s.end());
    // The last sentence was released at its full stop; the white space after it is dropped.
    expect(out.join('')).toBe(text.trimEnd());
    expect(out).toEqual(['Well — that depends: ', 'on the day, the time;', ' and the weather. Then we go.']);
  });

  it('keeps a sentence with nothing to speak as a chunk of its own, not joined to the next', () => {
    const { steps, end } = run(['Hello there, my friend!\n', '```\n', '```\n', '🙂\n', 'See you.']);
    expect([...steps.flat(), ...end]).toEqual([
      'Hello there, ',
      'my friend!\n',
      '```\n',
      '```\n',
      '🙂\n',
      'See you.',
    ]);
  });

  it('releases a complete sentence or clause as soon as what has arrived ends it, not at the next token', () => {
    const s = new ClauseSplitter();
    expect(s.push('Hello there')).toEqual([]);
    expect(s.push('.')).toEqual(['Hello there.']);
    expect(s.push(' Let me check that for you')).toEqual([]);
    expect(s.push('. ')).toEqual([' Let me check that for you. ']);
    expect(s.end()).toEqual([]);
    expect(run(['Hello there, ']).steps).toEqual([['Hello there, ']]);
    expect(run(['Hello there', ',']).steps).toEqual([[], ['Hello there,']]);
    // Not in a number or before a colon's next token ("https:", "1,000").
    expect(run(['It costs 1', ',']).steps).toEqual([[], []]);
    expect(run(['Go to https', ':']).steps).toEqual([[], []]);
    expect(run(['Okay.\n']).steps).toEqual([['Okay.\n']]);
    // A first sentence with a word is spoken however short; later short ones join the next.
    expect(run(['Sure! ']).steps).toEqual([['Sure! ']]);
    expect(run(['Sure thing. ', 'Yes. ', 'It is booked for eight. ']).steps).toEqual([
      ['Sure thing. '],
      [],
      ['Yes. It is booked for eight. '],
    ]);
    // Not after an abbreviation, and a short clause still waits (first chunk: 8 characters).
    expect(run(['Please ask Dr. ']).steps).toEqual([[]]);
    expect(run(['Sure, ']).steps).toEqual([[]]);
    expect(run(['1. ']).steps).toEqual([[]]);
  });

  it('returns nothing at the end for white space only', () => {
    expect(run(['  ', ' ']).end).toEqual([]);
  });
});
