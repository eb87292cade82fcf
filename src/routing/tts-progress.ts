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
  readonly #splitter: SentenceSplitter;
  /** Sentences whose audio has been handed to the caller in full. */
  delivered = 0;
  /** The sentence being spoken, when part of its audio has reached the caller. */
  cut: SentenceCut | undefined;

  constructor(text: string | AsyncIterable<string>, locale?: string) {
    this.#source = text;
    this.#splitter = new SentenceSplitter(locale);
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

  /** True once the text holds something to speak; false when it ended with only white space. */
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
        if (typeof this.#source === 'string') this.#add(this.#splitter.push(this.#source));
        else for await (const piece of this.#source) this.#add(this.#splitter.push(piece));
        this.#add(this.#splitter.end());
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
