/**
 * Whether the text that has arrived so far ends a sentence for good, without waiting for the
 * next token. `Intl.Segmenter` puts a boundary after terminal punctuation only once it sees
 * what follows (after a full stop it keeps the sentence open when the next word starts in lower
 * case: "e.g. the"), and LLM tokens carry their white space in front (" Yes"), so a splitter
 * that waits for text after a boundary waits for the next token, seconds away when the LLM
 * pauses after "Let me check that for you.". This decides with what is known. The sentence is
 * complete when it ends (white space after it allowed) with
 * - a line break (the segmenter always breaks there), or a full-width `。！？`;
 * - `!` or `?`, or an ellipsis of full stops ("Wait...");
 * - but not inside a web or email address or a path with nothing after it yet (the text
 *   since its last white space has "://", "@", "/" or starts with "www."): "https://acme.io/help?"
 *   goes on with "topic=billing", "support@acme." with "com";
 * - one full stop after a word that is no abbreviation: not one letter (an initial, "J."),
 *   not a word with a dot inside ("e.g.", "U.S."), not one of {@link ABBREVIATIONS} ("Dr.",
 *   "etc."). After a number, only once white space follows ("in 2023. "): "3." may still
 *   become "3.5"; the same after a symbol, an emoji or a closing bracket ("my friend 🙂. ").
 * Closing quotes and brackets may follow the punctuation ('"Go."', 'there.)').
 */
export function endsSentence(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  const last = text.charCodeAt(n - 1);
  if (last === 0x0a || last === 0x0d || last === 0x2028 || last === 0x2029) return true;
  if (last === 0x3002 || last === 0xff01 || last === 0xff1f) return true;
  // A cheap check first (this runs at every token of streamed text): the text ends with
  // white space or with one of the characters a sentence end can close with.
  if (!isSpace(last) && !CLOSERS.has(last)) return false;
  // The end of the text is enough, and keeps the pattern's work small on a long sentence.
  const tail = n > 64 ? text.slice(n - 64) : text;
  const m = TERMINAL.exec(tail);
  if (!m) return false;
  // Inside a web or email address ("https://acme.io/help?", "support@acme.", "www."), the
  // punctuation goes on with the next token ("topic=billing", "com"): only white space ends it.
  if (m[3] === '' && ADDRESS.test(tail.slice(lastSpace(tail) + 1))) return false;
  if (m[2] !== '.') return true; // '!' or '?' in the run, or an ellipsis ("Wait...")
  const word = m[1] ?? '';
  // A number ("3." may become "3.5"), or a symbol before the stop (an emoji, a closing bracket:
  // "my friend 🙂. "): once white space follows. A stop with nothing before it is no sentence.
  if (!LETTER.test(word)) return m[3] !== '' && (word !== '' || m.index > 0);
  return !isAbbreviation(word);
}

/**
 * Whether `text` ends with one full stop after an abbreviation (then closing quotes or
 * brackets and white space, as a segment of `Intl.Segmenter` does): an initial ("J. "), a word
 * with a dot inside ("e.g. ", "U.S. ") or one of {@link ABBREVIATIONS} ("Dr. "). The segmenter
 * puts a sentence boundary there when a capital follows ("Dr. Smith"); this says the boundary is
 * none. Only the last 64 characters are looked at.
 */
export function endsAtAbbreviation(text: string): boolean {
  const n = text.length;
  const m = TERMINAL.exec(n > 64 ? text.slice(n - 64) : text);
  if (m?.[2] !== '.') return false;
  const word = m[1] ?? '';
  return LETTER.test(word) && isAbbreviation(word);
}

/** A word that a full stop after does not end a sentence: an initial, a dotted word, a known abbreviation. */
function isAbbreviation(word: string): boolean {
  return word.length === 1 || word.includes('.') || ABBREVIATIONS.has(word.toLowerCase());
}

/**
 * A run of text without white space that is (part of) a web or email address or a path: a
 * scheme ("https://"), an "@", a slash, or a leading "www.".
 */
const ADDRESS = /:\/\/|@|\/|^www\./i;

/** The offset of the last white space character (ASCII, no-break, ideographic) in `text`, or -1. */
function lastSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000) return i;
  }
  return -1;
}

/** White space the segmenter counts after a sentence (ASCII, no-break and ideographic spaces). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0xa0 || c === 0x3000 || c === 0x0c || c === 0x0b;
}

/** Characters a sentence end may close with: `. ! ?`, closing quotes and brackets. */
const CLOSERS = new Set([...'.!?"\'”’»)]'].map((c) => c.charCodeAt(0)));

const LETTER = /\p{L}/u;

/**
 * The word before the last run of terminal punctuation (group 1: letters, digits and
 * apostrophes, with dots inside as in "e.g"), the run itself (group 2: one full stop, an
 * ellipsis of full stops, or a run with '!' or '?'), closing quotes or brackets, then the white
 * space to the end (group 3, maybe empty).
 */
const TERMINAL =
  /([\p{L}\p{N}'’]+(?:\.[\p{L}\p{N}'’]+)*)?(\.+|[.!?]*[!?][.!?]*)["'”’»)\]]*([ \t\u00a0\u3000\f\v]*)$/u;

/** English abbreviations that end in a full stop mid-sentence (lower case, without the dot). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'inc',
  'ltd',
  'corp',
  'mt',
  'ave',
  'blvd',
  'fig',
  'cf',
  'approx',
  'dept',
  'sgt',
  'capt',
  'lt',
  'rev',
  'hon',
  'vol',
  'pp',
  'jan',
  'feb',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);
