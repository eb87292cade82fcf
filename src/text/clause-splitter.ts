import { MAX_CLAUSE_LENGTH } from './length-cut.js';
import { SentenceSplitter } from './sentence-splitter.js';
import { speakable } from './speakable.js';

/** Options of a {@link ClauseSplitter}. Lengths count characters of the trimmed chunk. */
export interface ClauseSplitterOptions {
  /** BCP 47 tag for the sentence rules (default: the runtime's). */
  locale?: string;
  /** Shortest first chunk (ms to first audio matter most there). Default: 8. */
  firstMinLength?: number;
  /** Shortest later chunk: shorter clauses are joined to the next one. Default: 20. */
  minLength?: number;
  /**
   * Longest chunk without a clause or sentence end: longer text is cut at a word boundary
   * (after the last clause end or white space in its second half). Default: {@link MAX_CLAUSE_LENGTH} (200).
   */
  maxLength?: number;
}

/** A clause ends at a comma, semicolon, colon or dash followed by white space. */
const CLAUSE_END = /[,;:\u2013\u2014]\s+/g;
/** A clause ends at the end of the text so far: a comma, semicolon or dash right after a letter. */
const CLAUSE_END_NOW = /\p{L}[,;\u2013\u2014]$/u;

/**
 * Splits text that arrives in pieces (LLM tokens) into chunks to speak: at a sentence
 * boundary (`Intl.Segmenter`, as {@link SentenceSplitter}) or a clause boundary (`, ; : – —`
 * followed by white space), whichever comes first once the chunk is at least `minLength`
 * characters long (`firstMinLength` for the first chunk, so the first audio starts as early
 * as a clause allows). A first chunk that is a complete sentence with a word in it is released
 * however short ("Sure!"). A boundary counts as soon as it is known: a clause end once its
 * white space has arrived, or at once when the text so far ends with a comma, semicolon or dash
 * right after a word; a sentence end as {@link SentenceSplitter} releases it (at once when the
 * text so far ends it), so a complete chunk never waits for the next token. Chunks keep
 * their white space, so joining them gives the text back exactly, except white space that
 * arrives after the last chunk was released. Text that reaches `maxLength` characters without
 * a boundary is cut at a word boundary, so the audio of an unpunctuated reply starts and the
 * work per token stays bounded.
 */
export class ClauseSplitter {
  readonly #sentences: SentenceSplitter;
  readonly #firstMin: number;
  readonly #min: number;
  /** Text not yet released: complete sentences, then the sentence still growing. */
  #pending = '';
  /** Offsets in #pending where a complete sentence ends. */
  #sentenceEnds: number[] = [];
  /** Characters the sentence splitter has released, and characters cut off #pending, since the start. */
  #released = 0;
  #consumed = 0;
  #emitted = 0;

  constructor(options: ClauseSplitterOptions = {}) {
    this.#sentences = new SentenceSplitter(options.locale, {
      maxLength: options.maxLength ?? MAX_CLAUSE_LENGTH,
    });
    this.#firstMin = options.firstMinLength ?? 8;
    this.#min = options.minLength ?? 20;
  }

  /** Adds text; returns the chunks it completed, in order (possibly none). */
  push(text: string): string[] {
    this.#pending += text;
    for (const s of this.#sentences.push(text)) {
      this.#released += s.length;
      const end = this.#released - this.#consumed;
      if (end > 0) this.#sentenceEnds.push(end);
    }
    return this.#cut();
  }

  /**
   * The text ended: returns what is left as a last chunk (none when only white space is left:
   * it is added to the last chunk this call returns, or dropped).
   */
  end(): string[] {
    this.#sentences.end();
    const out = this.#cut();
    const rest = this.#pending;
    this.#pending = '';
    this.#sentenceEnds = [];
    if (rest.trim() !== '') out.push(rest);
    else if (rest !== '' && out.length > 0) out[out.length - 1] += rest;
    return out;
  }

  /**
   * The text stopped short (its source failed): returns the complete sentences still held to be
   * joined to the next chunk (shorter than the minimum) as one last chunk, so text that was
   * complete is spoken; an unfinished sentence after them (and a clause of it) is dropped.
   * Nothing may be pushed afterwards.
   */
  cutShort(): string[] {
    const at = this.#sentenceEnds[this.#sentenceEnds.length - 1];
    const held = at === undefined ? '' : this.#pending.slice(0, at);
    this.#pending = '';
    this.#sentenceEnds = [];
    return held.trim() === '' ? [] : [held];
  }

  /**
   * How much of the held text (not yet released) may be spoken as it is if the text pauses now
   * ({@link releaseHeld}), in characters from its start: all of it when it ends with sentence
   * punctuation (`. ! ? …` or a full-width `。！？`, then closing quotes or brackets and white
   * space: "I'll meet you at 5 p.m.", a short "Yes."; not a full stop right after a digit with
   * nothing after it, which may be a decimal point: "It costs 3." gives "It costs ") or with a comma, semicolon or dash right
   * after a letter ("Sure,": the clause end of {@link ClauseSplitter}), else up to its last white
   * space (whole words: "Let me look that up " of "Let me look that up fo", whose last word may
   * go on). 0 when nothing may be: no white space in it (one word, perhaps half of one) or
   * nothing to speak before the cut ({@link speakable}). One scan back to the last white space.
   */
  heldCut(): number {
    const all = this.#pending;
    // A full stop right after a number with nothing after it may be a decimal point ("3." of
    // "3.5"): that number waits like a last word.
    const whole = (HELD_SENTENCE_END.test(all) && !NUMBER_STOP.test(all)) || CLAUSE_END_NOW.test(all);
    let cut = whole ? all.length : 0;
    if (cut === 0) {
      for (let i = all.length - 1; i >= 0; i--) {
        if (isWhiteSpace(all.charCodeAt(i))) {
          cut = i + 1;
          break;
        }
      }
    }
    if (cut === 0) return 0;
    const first = all.search(SPEAKABLE_CHAR);
    return first >= 0 && first < cut ? cut : 0;
  }

  /**
   * The text paused with text held (the LLM runs a tool call, a token is slow): returns the
   * part of it {@link heldCut} allows as one chunk, so it is spoken now rather than when the
   * next token comes; what follows the cut (a last word that may go on) stays held. None when
   * nothing may be spoken yet. Pushing more text afterwards goes on as before.
   */
  releaseHeld(): string[] {
    const at = this.heldCut();
    if (at === 0) return [];
    const chunk = this.#pending.slice(0, at);
    this.#emitted++;
    this.#pending = this.#pending.slice(at);
    this.#consumed += at;
    this.#sentenceEnds = this.#sentenceEnds.map((e) => e - at).filter((e) => e > 0);
    return [chunk];
  }

  /** Releases every chunk that has a boundary past the minimum length. */
  #cut(): string[] {
    const out: string[] = [];
    for (;;) {
      const min = this.#emitted === 0 ? this.#firstMin : this.#min;
      const at = this.#boundary(min);
      if (at === undefined) return out;
      out.push(this.#pending.slice(0, at));
      this.#emitted++;
      this.#pending = this.#pending.slice(at);
      this.#consumed += at;
      this.#sentenceEnds = this.#sentenceEnds.map((e) => e - at).filter((e) => e > 0);
    }
  }

  /**
   * The first boundary in #pending with at least `min` characters before it, if any. A sentence
   * with nothing to speak (markup, emoji, punctuation) is a chunk of its own whatever its
   * length, joined to neither neighbour (tts() skips such a chunk).
   */
  #boundary(min: number): number | undefined {
    const all = this.#pending;
    let found: number | undefined;
    let start = 0;
    for (const at of this.#sentenceEnds) {
      const length = all.slice(0, at).trim().length;
      if (length >= min || (this.#emitted === 0 && start === 0 && hasWord(all.slice(0, at)))) {
        found = at;
        break;
      }
      if (!speakable(all.slice(start, at))) {
        // Cut before the sentence with nothing to speak, or after it when it comes first.
        found = start > 0 ? start : at;
        break;
      }
      start = at;
    }
    CLAUSE_END.lastIndex = 0;
    for (let m = CLAUSE_END.exec(all); m; m = CLAUSE_END.exec(all)) {
      const at = m.index + m[0].length;
      if (found !== undefined && at >= found) break;
      if (all.slice(0, at).trim().length >= min) return at;
    }
    // A comma, semicolon or dash right after a word, at the end of what has arrived: the LLM's
    // next token brings the white space (" I"), so the clause is complete now. (Not a colon:
    // "https:" goes on; not after a digit: "1," may become "1,000".)
    if (found === undefined && CLAUSE_END_NOW.test(all) && all.trim().length >= min) return all.length;
    return found;
  }
}

/** A letter, in any script. */
const LETTER = /\p{L}/u;
/** A letter or a digit ({@link speakable}). */
const SPEAKABLE_CHAR = /[\p{L}\p{N}]/u;
/** Held text that ends with sentence punctuation, closing quotes or brackets, then white space. */
const HELD_SENTENCE_END = /[.!?\u2026\u3002\uff01\uff1f]["'\u201d\u2019\u00bb)\]]*\s*$/u;
/** Held text ending in a full stop right after a digit, nothing after it ("It costs 3."). */
const NUMBER_STOP = /\p{N}\.$/u;

/** White space as `\s` counts it, without a regular expression (ASCII first: most of any text). */
function isWhiteSpace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** True when `text` has a word (a letter): a first sentence of one is spoken as it is. */
function hasWord(text: string): boolean {
  return LETTER.test(text);
}

/**
 * Splits a short text into clauses once, so that the first call that splits text does not pay
 * the one-time costs: the runtime's sentence break rules (15 to 20 ms the first time a process
 * builds a sentence `Intl.Segmenter`) and this module's first run. router.warmup() calls it.
 * Idempotent; never throws.
 */
export function preloadTextRules(): void {
  const splitter = new ClauseSplitter();
  splitter.push('Ready, set. Go now. ');
  splitter.end();
}
