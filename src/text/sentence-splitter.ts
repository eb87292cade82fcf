/**
 * Splits text that arrives in pieces (LLM tokens) into sentences with `Intl.Segmenter`
 * (granularity `sentence`). A sentence is released once text after its boundary has arrived
 * (so a "Dr." mid-stream is not cut early by a boundary the next token would undo), and the
 * rest when the text ends. Sentences keep their trailing white space, so joining them gives
 * the text back exactly.
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
    if (segments.length < 2) return [];
    // The last segment may still grow: keep it.
    const done = segments.slice(0, -1);
    this.#pending = segments[segments.length - 1]!;
    return done;
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
