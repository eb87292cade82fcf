import { AbortError } from '../errors/abort-error.js';
import type { ErrorRedactor } from '../errors/redact.js';
import { redactedCopy } from '../errors/redacted-copy.js';
import { RequestError } from '../errors/request-error.js';
import { type Clock, systemClock } from '../internal/clock.js';
import type { TtsTextPiece, WordTiming } from '../providers/types.js';
import { ClauseSplitter } from '../text/clause-splitter.js';
import { MAX_SENTENCE_LENGTH } from '../text/length-cut.js';
import { SentenceSplitter } from '../text/sentence-splitter.js';
import { speakable } from '../text/speakable.js';
import { describeStreamItem } from './stream-item.js';

/**
 * How long streamed text may wait for the next token with speakable text held (ms): a
 * sentence ending in an abbreviation-like form ("at 5 p.m."), a complete sentence shorter than
 * the clause minimum ("Yes."), words with no punctuation after them. When the caller's text
 * (an LLM) sends nothing for this long, the held text is released as it stands (whole words, see
 * ClauseSplitter.heldCut) so the listener is not left in silence while a tool call runs. An LLM
 * that is streaming sends its tokens tens of ms apart (bursts on the network stretch a gap to
 * 200 ms or so): twice that is a pause, not the next token on its way; and it is short enough
 * that the silence before the held words is heard as a breath, not as the end of the turn.
 */
export const HELD_TEXT_FLUSH_MS = 400;

/** What {@link TtsProgress.sentenceNow} answers for streamed text: its sentences are waited for. */
export const NOT_YET: unique symbol = Symbol('not yet');

/** How far the caller got into a sentence: the text sent, its word timestamps, audio delivered (ms). */
export interface SentenceCut {
  index: number;
  text: string;
  words: WordTiming[];
  deliveredMs: number;
}

/**
 * The text of one tts() call as sentences (clauses, for streamed text), read once from the caller (a string, or a stream
 * of tokens) and shared by every attempt of the call, with how many sentences have been fully
 * delivered to the caller. After a mid-stream failure the next provider starts at the first
 * sentence not fully delivered, so no sentence is heard twice and none is skipped. A string
 * is segmented as its sentences are asked for ({@link WINDOW} characters at a time), so the
 * first sentence of a long text is ready as soon as that of a short one.
 *
 * Barge-in: {@link TtsProgress.stop} (the call's signal, router.close(), or the call ending)
 * wakes every waiter at once with an AbortError and return()s the caller's text iterator,
 * whatever the text source is doing: a source that never yields again cannot hold the call.
 *
 * Streamed text held by the clause splitter ({@link HELD_TEXT_FLUSH_MS}): while text that may
 * be spoken is held, one timer on the call's clock runs; each token moves its deadline (no new
 * timer: when it fires early it is set again for the rest; an empty token is no token). Once
 * the text has sent nothing for that long, the held text is released as a clause. The timer is cleared when nothing is held,
 * when the text ends, fails or is stopped.
 */
export class TtsProgress {
  readonly #sentences: string[] = [];
  /** Streamed text: all of it read so far, and where each of #sentences ends in it. */
  #text = '';
  readonly #ends: number[] = [];
  #ended = false;
  #failure: { error: RequestError } | undefined;
  #stopped: AbortError | undefined;
  #waiters: (() => void)[] = [];
  #reading = false;
  /** True while {@link #onAbort} listens on the signals (streamed text). */
  #listening = false;
  /** A letter or digit has been read ({@link speakable}); streamed text scanned up to #scanned. */
  #spoken = false;
  #scanned = 0;
  #iterator: AsyncIterator<string> | undefined;
  /** A text given whole with more than one sentence: read in windows as sentences are asked for. */
  #whole: { splitter: SentenceSplitter; at: number } | undefined;
  readonly #source: string | AsyncIterable<string>;
  readonly #locale: string | undefined;
  readonly #signals: readonly AbortSignal[];
  readonly #redact: ErrorRedactor | undefined;
  readonly #clock: Clock;
  readonly #onAbort = () => this.stop();
  /** Streamed text: the clause splitter, while the text is read. */
  #splitter: ClauseSplitter | undefined;
  /** The timer of held text (a handle of #clock), and when the last token came (#clock ms). */
  #holdTimer: unknown;
  #holding = false;
  #lastTokenAt = 0;
  /** Clauses released by the timer (indexes in #sentences); undefined until there is one. */
  #timed: Set<number> | undefined;
  readonly #onHoldTimer = () => this.#holdExpired();
  /** Sentences whose audio has been handed to the caller in full. */
  delivered = 0;
  /** The sentence being spoken, when part of its audio has reached the caller. */
  cut: SentenceCut | undefined;

  /**
   * `signals`: each one, aborted, stops the call's text (the call's signal, the router's close).
   * `redact`: the router's redactor, applied to an error of the caller's text (see callerFailure).
   * `clock`: the router's, for the wait of held text (default: the system clock).
   */
  constructor(
    text: string | AsyncIterable<string>,
    locale?: string,
    signals: readonly AbortSignal[] = [],
    redact?: ErrorRedactor,
    clock: Clock = systemClock,
  ) {
    this.#source = text;
    this.#locale = locale;
    this.#signals = signals;
    this.#redact = redact;
    this.#clock = clock;
  }

  /** True while the timer of held streamed text is set ({@link HELD_TEXT_FLUSH_MS}). */
  get holdTimerSet(): boolean {
    return this.#holding;
  }

  /** True once the text ended (not stopped, not failed) and every sentence of it was delivered. */
  get finished(): boolean {
    this.#fill(this.delivered);
    return this.#ended && !this.#stopped && !this.#failure && this.delivered >= this.#sentences.length;
  }

  /** The caller's text stream failed (threw, or gave a non-string): that failure, as a RequestError. */
  get failure(): RequestError | undefined {
    return this.#failure?.error;
  }

  /**
   * Sentence `i`, waiting for the caller's text as needed; undefined when the text ended
   * before it. Rethrows an error of the caller's text stream; throws AbortError once stopped.
   */
  async sentence(i: number): Promise<string | undefined> {
    this.#read();
    this.#fill(i);
    for (;;) {
      if (this.#stopped) throw this.#stopped;
      if (i < this.#sentences.length) return this.#sentences[i];
      if (this.#failure) throw this.#failure.error;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /**
   * Sentence `i` of a text given whole, known at once (no promise, as {@link sentence} would
   * resolve): the sentence, or undefined when the text ends before it. {@link NOT_YET} for
   * streamed text, whose sentences are waited for with {@link sentence}.
   */
  sentenceNow(i: number): string | undefined | typeof NOT_YET {
    if (typeof this.#source !== 'string') return NOT_YET;
    this.#read();
    this.#fill(i);
    return this.#sentences[i];
  }

  /** True when the text is given whole and has no sentence `i` (false for streamed text: not known). */
  endsBefore(i: number): boolean {
    return this.sentenceNow(i) === undefined;
  }

  /**
   * Streamed text from clause `first` on, as it arrives: each piece of the caller's text (a
   * token, cut at a clause end where one falls inside it) as soon as it is read, and a piece with
   * `clauseEnd: true` (its text may be '') once the clause splitter has found that the text sent
   * so far ends a clause. The last clause (whose end is the end of the text) is not marked.
   * `onClause(clause)` is called as each clause's last piece is handed out, before it is.
   * A piece never ends between the two halves of a surrogate pair (a token that does waits for
   * the next one), so each piece is well-formed text.
   * Once the caller's text stream failed, no text after its last complete clause is handed out
   * (the unfinished clause is never spoken), and the pieces end after the complete clauses:
   * normally when nothing of the unfinished clause was handed out (the caller checks
   * {@link failure}); by rethrowing the failure when some of it was (the adapter then lets the
   * provider finish the clauses it was asked to speak and cancels the rest). A complete clause
   * whose end lies inside text already handed out with the unfinished one (a short sentence held
   * to be joined to the next clause) is not marked: marking it would speak that text too; it is
   * left to a new request ({@link failedBefore}). A clause released by the timer of held text
   * at its last white space, when the word after it was already handed out, is not marked
   * either: marking it would speak that word (perhaps half of one) too; the provider speaks it
   * with the next clause end (`onClause` gets `marked: false` for it). Throws AbortError once
   * stopped.
   */
  async *pieces(
    first: number,
    onClause: (clause: string, marked: boolean) => void,
  ): AsyncGenerator<TtsTextPiece, void, undefined> {
    this.#read();
    let clause = first;
    let at = first === 0 ? 0 : this.#ends[first - 1]!;
    for (;;) {
      if (this.#stopped) throw this.#stopped;
      const end = this.#ends[clause];
      if (end !== undefined) {
        // A clause released when the text failed may end inside text already forwarded: with
        // unfinished text forwarded after its end, a clause end there would speak that text.
        if (this.#failure && this.#text.slice(end, at).trim() !== '') throw this.#failure.error;
        const text = end > at ? this.#text.slice(at, end) : '';
        const unmarked = end < at && this.#timed?.has(clause) === true;
        at = Math.max(at, end);
        const last = this.#ended && clause === this.#sentences.length - 1;
        onClause(this.#sentences[clause]!, !unmarked);
        clause++;
        if (!unmarked) yield { text, clauseEnd: !last };
        continue;
      }
      // Once the text failed, what follows its last complete clause is unfinished: never sent.
      const whole = this.#wholeLength();
      if (whole > at && !this.#failure) {
        const text = this.#text.slice(at, whole);
        at = whole;
        yield { text, clauseEnd: false };
        continue;
      }
      if (this.#failure) {
        // The text failed after complete clauses: when nothing of the unfinished clause was
        // sent, the input ends so that the provider speaks them (the attempt then throws the
        // failure, {@link failure}). Otherwise ending the input would speak that text too: the
        // failure is thrown, and the adapter finishes the clauses it flushed, then cancels.
        if (this.#text.slice(this.#ends[this.#ends.length - 1] ?? 0, at).trim() === '') return;
        throw this.#failure.error;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /**
   * True when the caller's text stream failed and has a complete clause `i` (one it released
   * before or at the failure): a streamed request that ended before clause `i` leaves it to be
   * spoken by a new request. False while the text has not failed.
   */
  failedBefore(i: number): boolean {
    return this.#failure !== undefined && !this.#stopped && i < this.#sentences.length;
  }

  /**
   * True once the text holds something to speak (a letter or digit, {@link speakable}); false
   * when it ended with none (only white space, punctuation, symbols, emoji, markup).
   */
  async hasSpeech(): Promise<boolean> {
    this.#read();
    if (typeof this.#source === 'string') return this.#speechSoFar();
    // Streamed text has speech from its first letter or digit on (it is forwarded as it comes).
    for (;;) {
      if (this.#stopped) throw this.#stopped;
      if (this.#speechSoFar()) return true;
      if (this.#failure) throw this.#failure.error;
      if (this.#ended) return false;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /**
   * {@link hasSpeech} when the answer is known without waiting (a text given whole, or streamed
   * text that already has a word); undefined when it is not (then ask {@link hasSpeech}, which
   * also throws the failure or the stop).
   */
  speechNow(): boolean | undefined {
    this.#read();
    if (typeof this.#source === 'string') return this.#speechSoFar();
    if (this.#stopped) return undefined;
    if (this.#speechSoFar()) return true;
    if (this.#failure || !this.#ended) return undefined;
    return false;
  }

  /**
   * Stops reading the caller's text: waiters get an AbortError now, and the text iterator is
   * return()ed without waiting for it (its pending next() may never settle). Idempotent; a
   * text that already ended is left as it is.
   */
  stop(): void {
    this.#unlisten();
    this.#clearHold();
    // A text given whole has nothing to release (and its sentences stay readable).
    if (this.#ended || typeof this.#source === 'string') return;
    this.#stopped = new AbortError('The text-to-speech call was stopped');
    this.#ended = true;
    const it = this.#iterator;
    this.#iterator = undefined;
    if (it) returnQuietly(it);
    this.#wake();
  }

  /**
   * The length of the streamed text read so far without a high surrogate at its end while the
   * text goes on: a token that ends inside a character outside the Basic Multilingual Plane (an
   * emoji, a rare CJK ideograph) holds half of it, which a provider's JSON frame can carry only
   * as a lone `\uD8xx` escape (refused, or read as U+FFFD): that half waits for the next token.
   */
  #wholeLength(): number {
    const n = this.#text.length;
    if (n === 0 || this.#ended) return n;
    const last = this.#text.charCodeAt(n - 1);
    return last >= 0xd800 && last < 0xdc00 ? n - 1 : n;
  }

  /** True when the text read so far has a letter or digit; each character is scanned once. */
  #speechSoFar(): boolean {
    if (this.#spoken) return true;
    if (typeof this.#source === 'string') this.#spoken = speakable(this.#source);
    else if (this.#text.length > this.#scanned) {
      // From one code unit back: a surrogate pair split across two tokens is read whole.
      this.#spoken = speakable(this.#text.slice(Math.max(0, this.#scanned - 1)));
      this.#scanned = this.#text.length;
    }
    return this.#spoken;
  }

  #read(): void {
    if (this.#reading) return;
    this.#reading = true;
    // A known text is spoken sentence by sentence; streamed text (LLM tokens) clause by clause,
    // so the first audio starts as soon as a clause exists.
    if (typeof this.#source === 'string') {
      // The common case, one short sentence: no segmenter.
      if (this.#source.length <= MAX_SENTENCE_LENGTH && oneSentence(this.#source)) {
        if (this.#source !== '') this.#sentences.push(this.#source);
        this.#ended = true;
      } else {
        // Segmented as sentences are asked for: the first is ready after reading about its own
        // length, whatever the length of the text.
        this.#whole = { splitter: new SentenceSplitter(this.#locale, { early: false }), at: 0 };
      }
      return;
    }
    if (this.#signals.some((s) => s.aborted)) {
      this.stop();
      return;
    }
    for (const s of this.#signals) s.addEventListener('abort', this.#onAbort, { once: true });
    this.#listening = true;
    void this.#pump(this.#source);
  }

  /** A text given whole: reads it in windows until sentence `i` exists or the text is read. */
  #fill(i: number): void {
    const whole = this.#whole;
    if (!whole) return;
    const text = this.#source as string;
    while (this.#sentences.length <= i && whole.at < text.length) {
      let end = Math.min(text.length, whole.at + WINDOW);
      // Not between the two halves of a surrogate pair.
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c < 0xdc00 && end < text.length) end++;
      this.#add(whole.splitter.push(text.slice(whole.at, end)));
      whole.at = end;
    }
    if (whole.at >= text.length) {
      this.#add(whole.splitter.end());
      this.#whole = undefined;
      this.#ended = true;
    }
  }

  async #pump(source: AsyncIterable<string>): Promise<void> {
    const splitter = new ClauseSplitter(this.#locale ? { locale: this.#locale } : {});
    this.#splitter = splitter;
    try {
      const it = source[Symbol.asyncIterator]();
      this.#iterator = it;
      for (;;) {
        const next = await it.next();
        if (this.#ended) return; // stopped while the source was waiting
        if (next.done) break;
        if (typeof next.value !== 'string') {
          // The caller's stream has not ended: it is closed (its own clean-up runs), once.
          this.#iterator = undefined;
          returnQuietly(it);
          throw new RequestError(
            'text',
            `an item of the text stream is not a string: got ${describeStreamItem(next.value, 'text')}`,
          );
        }
        this.#text += next.value;
        this.#add(splitter.push(next.value));
        // An empty token is not text (an LLM stream mapped with `content ?? ''` gives one per
        // tool-call delta): the wait of held text goes on.
        if (next.value !== '') this.#hold(splitter);
        // The text read is forwarded as it comes (TtsProgress.pieces).
        this.#wake();
      }
      this.#clearHold();
      this.#add(splitter.end());
    } catch (error) {
      this.#clearHold();
      if (this.#ended) return;
      // Complete sentences held to be joined to the next clause are still spoken (the caller
      // may have shown them); an unfinished sentence is not.
      this.#add(splitter.cutShort());
      this.#failure = { error: callerFailure('text', error, this.#redact) };
    }
    this.#iterator = undefined;
    this.#splitter = undefined;
    this.#ended = true;
    this.#unlisten();
    this.#wake();
  }

  /**
   * After a token: sets the timer of held text when the splitter holds text that may be spoken
   * ({@link ClauseSplitter.heldCut}) and none is set, or moves its deadline; clears it when
   * nothing is held.
   */
  #hold(splitter: ClauseSplitter): void {
    if (splitter.heldCut() === 0) {
      this.#clearHold();
      return;
    }
    this.#lastTokenAt = this.#clock.now();
    if (this.#holding) return;
    this.#holding = true;
    this.#holdTimer = this.#clock.setTimeout(this.#onHoldTimer, HELD_TEXT_FLUSH_MS);
  }

  /** The timer of held text fired: set again for the rest of the wait, or the held text is released. */
  #holdExpired(): void {
    this.#holding = false;
    this.#holdTimer = undefined;
    const splitter = this.#splitter;
    if (this.#ended || !splitter) return;
    const wait = this.#lastTokenAt + HELD_TEXT_FLUSH_MS - this.#clock.now();
    if (wait > 0) {
      this.#holding = true;
      this.#holdTimer = this.#clock.setTimeout(this.#onHoldTimer, wait);
      return;
    }
    const released = splitter.releaseHeld();
    if (released.length === 0) return;
    this.#timed ??= new Set();
    this.#timed.add(this.#sentences.length);
    this.#add(released);
  }

  #clearHold(): void {
    if (!this.#holding) return;
    this.#holding = false;
    this.#clock.clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
  }

  #unlisten(): void {
    // Only streamed text listens: a text given whole removes nothing (a remove walks the signal's listeners).
    if (!this.#listening) return;
    this.#listening = false;
    for (const s of this.#signals) s.removeEventListener('abort', this.#onAbort);
  }

  #add(sentences: string[]): void {
    if (sentences.length === 0) return;
    for (const s of sentences) this.#ends.push((this.#ends[this.#ends.length - 1] ?? 0) + s.length);
    this.#sentences.push(...sentences);
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}

/** `return()`s `it` without waiting for it; a return() that throws or rejects is ignored. */
function returnQuietly(it: AsyncIterator<string>): void {
  if (!it.return) return;
  try {
    Promise.resolve(it.return()).catch(() => {});
  } catch {
    // A text source whose return() throws has nothing more to release.
  }
}

/** Characters of a text given whole read at a time by the sentence splitter. */
const WINDOW = 256;

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

/**
 * An error of the caller's own input stream `field`, as a RequestError whose cause is that
 * error, quoted in the message (`the caller's text stream threw (Error: ...)`); a RequestError
 * the caller's stream threw is passed on as it is. With `redact` (the router's: every
 * configured secret, and anything shaped like a credential), no secret reaches the message or
 * the cause chain: when the caller's error holds one, the cause (or the passed-on
 * RequestError) is a cleaned copy of it (see redactedCopy; the caller's own error object is
 * left as it is), otherwise the caller's error itself.
 */
export function callerFailure(field: string, error: unknown, redact?: ErrorRedactor): RequestError {
  if (RequestError.isInstance(error)) return redact ? redactedCopy(error, redact) : error;
  const cause = redact ? redactedCopy(error, redact) : error;
  let what = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  // A thrown value's own toString() is not walked by the copy.
  if (redact) what = redactedCopy(what, redact);
  return new RequestError(field, `the caller's ${field} stream threw (${what})`, { cause });
}
