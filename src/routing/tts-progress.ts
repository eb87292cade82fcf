import type { WordTiming } from '../providers/types.js';
import { SentenceSplitter } from '../text/sentence-splitter.js';

/** How far the caller got into a sentence: the text sent, its word timestamps, audio delivered (ms). */
export interface SentenceCut {
  index: number;
  text: string;
  words: WordTiming[];
  deliveredMs: number;
}

/**
 * The text of one tts() call as sentences, read once from the caller (a string, or a stream
 * of tokens) and shared by every attempt of the call, with how many sentences have been fully
 * delivered to the caller. After a mid-stream failure the next provider starts at the first
 * sentence not fully delivered, so no sentence is heard twice and none is skipped.
 */
export class TtsProgress {
  readonly #sentences: string[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiters: (() => void)[] = [];
  #reading: Promise<void> | undefined;
  readonly #source: string | AsyncIterable<string>;
  readonly #locale: string | undefined;
  /** Sentences whose audio has been handed to the caller in full. */
  delivered = 0;
  /** The sentence being spoken, when part of its audio has reached the caller. */
  cut: SentenceCut | undefined;

  constructor(text: string | AsyncIterable<string>, locale?: string) {
    this.#source = text;
    this.#locale = locale;
    // The common case, one short sentence: no segmenter, no async reader.
    if (typeof text === 'string' && oneSentence(text)) {
      if (text !== '') this.#sentences.push(text);
      this.#ended = true;
      this.#reading = Promise.resolve();
    }
  }

  /**
   * Sentence `i`, waiting for the caller's text as needed; undefined when the text ended
   * before it. Rethrows an error of the caller's text stream.
   */
  async sentence(i: number): Promise<string | undefined> {
    this.#read();
    for (;;) {
      if (i < this.#sentences.length) return this.#sentences[i];
      if (this.#failure) throw this.#failure.error;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** True once the text holds something to speak; false when it ended with only white space (C32). */
  async hasSpeech(): Promise<boolean> {
    for (let i = 0; ; i++) {
      const s = await this.sentence(i);
      if (s === undefined) return false;
      if (s.trim() !== '') return true;
    }
  }

  #read(): void {
    this.#reading ??= (async () => {
      try {
        const splitter = new SentenceSplitter(this.#locale);
        if (typeof this.#source === 'string') this.#add(splitter.push(this.#source));
        else for await (const piece of this.#source) this.#add(splitter.push(piece));
        this.#add(splitter.end());
      } catch (error) {
        this.#failure = { error };
      }
      this.#ended = true;
      this.#wake();
    })();
  }

  #add(sentences: string[]): void {
    if (sentences.length === 0) return;
    this.#sentences.push(...sentences);
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}

/**
 * Letters, marks, digits, spaces, commas, apostrophes and hyphens, then at most a run of
 * `.`, `!` or `?` and spaces at the end: Unicode sentence segmentation (UAX #29) finds no
 * boundary inside such a text, so it is one sentence as it stands.
 */
const ONE_SENTENCE = /^[\p{L}\p{M}\p{N} ,'\u2019-]*[.!?]*[ ]*$/u;

/** True when `text` holds no sentence boundary (checked without a segmenter). */
export function oneSentence(text: string): boolean {
  return ONE_SENTENCE.test(text);
}
