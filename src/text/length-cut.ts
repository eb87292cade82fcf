/**
 * The longest sentence of a text given whole, in characters: a longer one is cut (at a clause
 * end or a word boundary) into requests of at most about this size. Well under the smallest
 * per-request limit providers document (OpenAI speech: 4096 characters of `input`), and long
 * enough that real sentences are not cut.
 */
export const MAX_SENTENCE_LENGTH = 1000;

/**
 * The longest chunk of streamed text without a clause or sentence end, in characters: a longer
 * one is cut at a word boundary so that its audio starts (about 40 words; natural clauses are
 * far shorter).
 */
export const MAX_CLAUSE_LENGTH = 200;

/**
 * Where to cut text that has grown to `max` characters without a sentence end, so that what
 * comes before is spoken: after the last clause end (`, ; : – —` and white space, or a
 * full-width `、，；：`) in its second half, else after the last white space there (a word
 * boundary), else at `max` characters, moved back to the start of a grapheme cluster (text
 * without spaces: CJK, a long URL, a run of emoji). Undefined while the text is shorter than
 * `max`. The cut is an offset in `text`, between 1 and `max`: no piece is longer than `max`.
 */
export function lengthCut(text: string, max: number): number | undefined {
  if (text.length < max) return undefined;
  // The cut is within the first `max` characters, however much more text has arrived (a text
  // given whole is read in windows): no piece is longer than `max`.
  const head = text.length > max ? text.slice(0, max) : text;
  const from = max >> 1;
  let cut: number | undefined;
  CUT_CLAUSE.lastIndex = from;
  for (let m = CUT_CLAUSE.exec(head); m; m = CUT_CLAUSE.exec(head)) cut = m.index + m[0].length;
  if (cut !== undefined) return cut;
  for (let i = head.length - 1; i >= from; i--) {
    if (SPACE.test(head[i]!)) {
      // After the whole run of white space (the next word starts the next chunk).
      let end = i + 1;
      while (end < head.length && SPACE.test(head[end]!)) end++;
      return end;
    }
  }
  return graphemeStart(text, max);
}

/** A clause end to cut after; the ASCII marks need white space after them ("1,000" is one number). */
const CUT_CLAUSE = /[,;:\u2013\u2014]\s+|[\u3001\uff0c\uff1b\uff1a]\s*/gu;
const SPACE = /\s/u;

/** The last grapheme cluster boundary at or before `at` (the first after it when there is none before). */
function graphemeStart(text: string, at: number): number {
  const from = Math.max(0, at - 32);
  let best = 0;
  let after = 0;
  let first = true;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const g of graphemes.segment(text.slice(from, at + 32))) {
    // The window's start is not known to be a boundary.
    if (first) {
      first = false;
      continue;
    }
    const i = from + g.index;
    if (i > at) {
      after = i;
      break;
    }
    best = i;
  }
  if (best > 0) return best;
  if (after > 0) return after;
  // One grapheme cluster longer than the window (a long run of combining marks): cut at a code point.
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c < 0xdc00 ? at + 1 : at;
}

let graphemes: Intl.Segmenter | undefined;
