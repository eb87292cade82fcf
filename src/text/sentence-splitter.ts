import { endsSentence } from './sentence-end.js';

/**
 * Splits text that arrives in pieces (LLM tokens) into sentences with `Intl.Segmenter`
 * (granularity `sentence`). A sentence is released once text after its boundary has arrived,
 * or at once when what has arrived ends it for good ({@link endsSentence}: terminal
 * punctuation and white space after a word that is no abbreviation, or a line break), so a
 * complete sentence never waits for the next token; the rest is released when the text ends.
 * Sentences keep their trailing white space, so joining them gives the text back exactly.
 */
export class SentenceSplitter {
  readonly #segmenter: Intl.Segmenter;
  #pending = '';

  /** `locale`: BCP 47 tag for the sentence rules (default: the runtime's). */
  constructor(locale?: string) {
    this.#segmenter = segmenterFor(locale);
  }

  /** Adds text; returns the sentences it completed, in order (possibly none). */
  push(text: string): string[] {
    this.#pending += text;
    const segments = [...this.#segmenter.segment(this.#pending)].map((s) => s.segment);
    const last = segments[segments.length - 1];
    if (last === undefined) return [];
    // The last segment may still grow, unless what has arrived ends it.
    if (endsSentence(last)) {
      this.#pending = '';
      return segments;
    }
    if (segments.length < 2) return [];
    this.#pending = last;
    return segments.slice(0, -1);
  }

  /** The text ended: returns what is left as a last sentence (none when nothing is left). */
  end(): string[] {
    const rest = this.#pending;
    this.#pending = '';
    return rest ? [rest] : [];
  }
}

/** One Intl.Segmenter per locale: building one costs ~15 us, more than the rest of a tts() call's setup. */
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
