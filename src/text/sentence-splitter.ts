import { lengthCut, MAX_SENTENCE_LENGTH } from './length-cut.js';
import { endsAtAbbreviation, endsSentence } from './sentence-end.js';

/** Options of a {@link SentenceSplitter}. */
export interface SentenceSplitterOptions {
  /**
   * True (the default, for streamed text): a sentence is released as soon as what has arrived
   * ends it ({@link endsSentence}). False (for a text read in windows): the last sentence is
   * held until text after it arrives or the text ends, and a boundary only once a letter
   * follows it, so the sentences are those of the whole text segmented at once.
   */
  early?: boolean;
  /**
   * A sentence that reaches this many characters without an end is cut ({@link lengthCut}: at
   * a clause end or a word boundary) so that it can be spoken. Default: {@link MAX_SENTENCE_LENGTH}.
   */
  maxLength?: number;
}

/**
 * Splits text that arrives in pieces (LLM tokens) into sentences with `Intl.Segmenter`
 * (granularity `sentence`). A sentence is released once text after its boundary has arrived,
 * or at once when what has arrived ends it for good ({@link endsSentence}: terminal
 * punctuation and white space after a word that is no abbreviation, or a line break), so a
 * complete sentence never waits for the next token; the rest is released when the text ends.
 * A full stop after an abbreviation or an initial ("Dr. Smith", "J. R. R. Tolkien") ends no
 * sentence, although the segmenter breaks there before a capital. Sentences keep their
 * trailing white space, so joining them gives the text back exactly.
 *
 * Work per piece is bounded: a boundary can only follow a character that is not a letter,
 * digit, space, comma, apostrophe or hyphen (a "mark": `. ! ?`, a line break, a quote...), so
 * a piece without one costs one scan of the piece; otherwise the segmenter reads from the first
 * mark whose boundary is still open (none once a letter follows it) to the end of what has
 * arrived, which the length cut keeps under `maxLength` characters.
 */
export class SentenceSplitter {
  #segmenter: Intl.Segmenter | undefined;
  readonly #locale: string | undefined;
  readonly #early: boolean;
  readonly #max: number;
  #pending = '';
  /** Offset in #pending of the first mark whose boundary is still open; -1 when there is none. */
  #from = -1;

  /** `locale`: BCP 47 tag for the sentence rules (default: the runtime's). */
  constructor(locale?: string, options: SentenceSplitterOptions = {}) {
    this.#locale = locale;
    this.#early = options.early ?? true;
    this.#max = options.maxLength ?? MAX_SENTENCE_LENGTH;
  }

  /** Adds text; returns the sentences it completed, in order (possibly none). */
  push(text: string): string[] {
    const start = this.#pending.length;
    this.#pending += text;
    if (this.#from < 0) {
      const i = firstMark(text, 0);
      if (i >= 0) this.#from = start + i;
    }
    const out = this.#from < 0 ? [] : this.#split();
    for (
      let cut = lengthCut(this.#pending, this.#max);
      cut !== undefined;
      cut = lengthCut(this.#pending, this.#max)
    ) {
      out.push(this.#pending.slice(0, cut));
      this.#pending = this.#pending.slice(cut);
      this.#from = firstMark(this.#pending, 0);
    }
    return out;
  }

  /** The text ended: returns what is left as a last sentence (none when nothing is left). */
  end(): string[] {
    // Held boundaries with no letter after them are boundaries at the end of the text (there
    // is none in a closing run of punctuation and spaces: "you?!", 'Go." ').
    const out =
      !this.#early && this.#from >= 0 && !CLOSING.test(this.#pending.slice(this.#from))
        ? this.#split(true)
        : [];
    const rest = this.#pending;
    this.#pending = '';
    this.#from = -1;
    if (rest) out.push(rest);
    return out;
  }

  /**
   * Releases the sentences complete in #pending, segmenting from just before #from. `final`:
   * the text ends with #pending (a boundary needs no letter after it).
   */
  #split(final = false): string[] {
    const pending = this.#pending;
    // One character before the mark is the context the rules look back at ("U.S": SB7); two
    // keep a surrogate pair whole.
    const base = Math.max(0, this.#from - 2);
    this.#segmenter ??= segmenterFor(this.#locale);
    // The last letter: a boundary before it is settled (the rules look ahead to the next letter).
    const lastLetter = lastLetterIndex(pending, this.#from);
    const out: string[] = [];
    let at = 0;
    let first = true;
    for (const s of this.#segmenter.segment(base === 0 ? pending : pending.slice(base))) {
      if (first) {
        // The start of the slice is no boundary (or the start of #pending).
        first = false;
        continue;
      }
      const b = base + s.index;
      if (!this.#early && !final && b > lastLetter) break;
      if (endsAtAbbreviation(pending.slice(Math.max(at, b - 64), b))) continue;
      if (gluedToNext(pending, b)) continue;
      out.push(pending.slice(at, b));
      at = b;
    }
    let rest = at === 0 ? pending : pending.slice(at);
    // The last sentence may still grow, unless what has arrived ends it.
    if (this.#early && endsSentence(rest)) {
      out.push(rest);
      rest = '';
    }
    this.#pending = rest;
    // Marks before the last letter are settled; the next segmenting starts at the first after it.
    this.#from = rest === '' ? -1 : firstMark(rest, Math.max(0, lastLetter - at + 1));
    return out;
  }
}

/**
 * True when the boundary at `b` falls right after `.`, `?` or `!` with a letter or digit right
 * after it, no white space between: inside a web address or a name ("acme.io/help?topic=billing",
 * "Node.JS", "Yahoo!Mail"), where the segmenter breaks after `?` and `!` (and after `.` before
 * a capital), but nothing ends there. A full-width `。！？` ends its sentence as before.
 */
function gluedToNext(text: string, b: number): boolean {
  const before = text.charCodeAt(b - 1);
  if (before !== 0x2e && before !== 0x3f && before !== 0x21) return false;
  const after = text.codePointAt(b);
  return after !== undefined && LETTER_OR_DIGIT.test(String.fromCodePoint(after));
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A character after which no sentence boundary can fall (see oneSentence in tts-progress). */
const SAFE = /[\p{L}\p{M}\p{N} ,'\u2019-]/u;
const LETTER = /\p{L}/u;
/** Terminal punctuation and closing quotes or brackets, then spaces: no boundary inside. */
const CLOSING = /^[.!?\u3002\uff01\uff1f"'\u201d\u2019\u00bb)\]]*[ \t]*$/u;

/** The offset of the first mark (a character not {@link SAFE}) in `text` from `from`, or -1. */
function firstMark(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // ASCII letters, digits and space first: most of any text.
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x20)
      continue;
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      if (!SAFE.test(text.slice(i, i + 2))) return i;
      i++;
      continue;
    }
    if (!SAFE.test(text[i]!)) return i;
  }
  return -1;
}

/** The offset of the last letter in `text` at or after `from`, or from - 1 when there is none. */
function lastLetterIndex(text: string, from: number): number {
  for (let i = text.length - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return i;
    if (c >= 0xdc00 && c < 0xe000 && i > from) {
      if (LETTER.test(text.slice(i - 1, i + 1))) return i;
      i--;
      continue;
    }
    if (c > 0x7f && LETTER.test(text[i]!)) return i;
  }
  return from - 1;
}

/**
 * One Intl.Segmenter per locale. The first sentence segmenter of a process costs 15 to 20 ms (the
 * runtime loads its sentence break rules; measured on Node 20, 22 and 24), any later one, of any
 * locale, about 0.05 ms: `preloadTextRules` (clause-splitter.ts) pays the first ahead of a call.
 */
const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: string | undefined): Intl.Segmenter {
  const key = locale ?? '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
    segmenters.set(key, segmenter);
  }
  return segmenter;
}
