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

  describe('releaseHeld (the caller paused with text held)', () => {
    /** After pushing `tokens`: heldCut(), what releaseHeld() gives, what is left at the end. */
    function paused(tokens: string[]) {
      const s = new ClauseSplitter();
      const pushed = tokens.flatMap((t) => s.push(t));
      const cut = s.heldCut();
      return { pushed, cut, released: s.releaseHeld(), end: s.end() };
    }

    it('a sentence ending in an abbreviation-like form: all of it', () => {
      expect(paused(["I'll meet you at 5 p.m."])).toEqual({
        pushed: [],
        cut: 23,
        released: ["I'll meet you at 5 p.m."],
        end: [],
      });
      expect(paused(['Please ask Dr. ']).released).toEqual(['Please ask Dr. ']);
      expect(paused(['Sure thing. ', '"Yes."']).released).toEqual(['"Yes."']);
    });

    it('a full stop right after a number with nothing after it may be a decimal point: the number waits like a last word', () => {
      // "3." may become "3.5": released, it split the number across two requests.
      expect(paused(['It costs 3', '.'])).toEqual({
        pushed: [],
        cut: 9,
        released: ['It costs '],
        end: ['3.'],
      });
      expect(paused(['It costs 3', '.', '5 dollars.']).pushed).toEqual(['It costs 3.5 dollars.']);
      // White space after it: a sentence end, all of it goes.
      expect(paused(['Sure thing. ', 'In 2023. ']).released).toEqual(['In 2023. ']);
    });

    it('a complete sentence under the minimum: all of it', () => {
      expect(paused(['Sure thing. ', 'Yes.'])).toEqual({
        pushed: ['Sure thing. '],
        cut: 4,
        released: ['Yes.'],
        end: [],
      });
    });

    it('words without punctuation: up to the last white space; the last word stays held', () => {
      expect(paused(['Let me look that up fo'])).toEqual({
        pushed: [],
        cut: 20,
        released: ['Let me look that up '],
        end: ['fo'],
      });
      expect(paused(['Let me look, ', 'that up '])).toEqual({
        pushed: ['Let me look, '],
        cut: 8,
        released: ['that up '],
        end: [],
      });
    });

    it('a comma, semicolon or dash right after a word: all of it (the clause is complete)', () => {
      expect(paused(['Sure', ','])).toEqual({ pushed: [], cut: 5, released: ['Sure,'], end: [] });
      expect(paused(['Sure thing. ', 'Yes, and', ' then;'])).toEqual({
        pushed: ['Sure thing. '],
        cut: 14,
        released: ['Yes, and then;'],
        end: [],
      });
    });

    it('nothing: one word (maybe half of one), a comma after a number, white space or nothing to speak before the cut', () => {
      for (const tokens of [['Hel'], ['1', ','], ['   '], ['*** ', 'x'], []]) {
        const r = paused(tokens);
        expect([r.cut, r.released]).toEqual([0, []]);
      }
    });

    it('the text goes on as before after a release: later clauses are cut from what follows it', () => {
      const s = new ClauseSplitter();
      expect(s.push('Sure thing. Yes.')).toEqual(['Sure thing. ']);
      expect(s.releaseHeld()).toEqual(['Yes.']);
      expect(s.push(' It is booked for eight.')).toEqual([' It is booked for eight.']);
      expect(s.push(' See')).toEqual([]);
      expect(s.releaseHeld()).toEqual([]);
      expect(s.push(' you at the old place')).toEqual([]);
      expect(s.releaseHeld()).toEqual([' See you at the old ']);
      expect(s.push(' by the river, tomorrow, at eight sharp. Bye.')).toEqual([
        'place by the river, tomorrow, ',
        'at eight sharp. Bye.',
      ]);
      expect(s.end()).toEqual([]);
    });
  });
});
