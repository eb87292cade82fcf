import { nextOf, type Takeable } from '../../internal/takeable.js';
import { drainRest } from '../../transport/drain-rest.js';
import { isDoneSentinel, type JsonEvent, parseJsonEvents, parseSse } from '../../transport/index.js';
import type { HttpResponse } from '../../transport/types.js';
import { withPartialOutput } from './with-partial-output.js';

/** What {@link assembledSse} drives: the assembler of one response (chat, transcription, speech events). */
export interface SseAssembler<T> {
  /** Whether output reached the caller (for `partialOutput`). */
  readonly hadOutput: boolean;
  /**
   * The events at the end of the stream: its end marker (`'done'`) or the body's end without
   * one (`'eof'`). Throws when that end is not a complete stream (truncated).
   */
  end(how: 'done' | 'eof'): T[];
}

const END: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });
const NONE: never[] = [];

/**
 * The events an assembler makes of a server-sent events response whose events carry JSON
 * (OpenAI-style chat, transcription and speech events, Anthropic Messages), read with the transport's
 * `parseSse` and `parseJsonEvents`:
 * - each JSON event's data goes through `push`, which checks it and returns its events (and
 *   `done` when it ended the stream: the rest of the body is then read in the background, at
 *   most 64 more events and 1 s, so the connection ends cleanly and is reused);
 * - the end marker (`isEnd`, default `[DONE]` after trimming; never JSON-parsed) ends the
 *   stream with `assembler.end('done')`, after which the rest of the body is drained in the
 *   background for connection reuse (closed instead when still open 1 s later); a body that ends without it gives `assembler.end('eof')`;
 * - an error inside the 200 stream (`event: error`, a JSON `error` key) throws the transport's
 *   ProviderError, data that is not JSON ProtocolError; every failure (of the body, `push` or
 *   `end`) is thrown with `partialOutput` = `assembler.hadOutput`, and one before the body's
 *   end cancels the response, as does `return()` (the reader stopping early).
 * The iterator is {@link Takeable}: over the transport's body, an event whose bytes are already
 * read becomes the caller's events by plain calls, without a promise or generator step.
 */
export function assembledSse<T>(
  provider: string,
  response: HttpResponse,
  assembler: SseAssembler<T>,
  push: (value: unknown) => { events: T[]; done: boolean },
  isEnd: (data: string) => boolean = isDoneSentinel,
): AsyncIterableIterator<T> & Takeable<T> {
  return new AssembledSse(provider, response, assembler, push, isEnd);
}

class AssembledSse<T> implements AsyncIterableIterator<T>, Takeable<T> {
  readonly #response: HttpResponse;
  readonly #assembler: SseAssembler<T>;
  readonly #push: (value: unknown) => { events: T[]; done: boolean };
  readonly #events: Takeable<JsonEvent>;
  #out: T[] = NONE;
  #head = 0;
  /** Set when the end marker was seen. */
  #sawEnd = false;
  /** No more events will be read (the stream ended, failed or was closed). */
  #finished = false;

  constructor(
    provider: string,
    response: HttpResponse,
    assembler: SseAssembler<T>,
    push: (value: unknown) => { events: T[]; done: boolean },
    isEnd: (data: string) => boolean,
  ) {
    this.#response = response;
    this.#assembler = assembler;
    this.#push = push;
    this.#events = parseJsonEvents(parseSse(response.body, { provider }), {
      provider,
      response,
      isDone: (data) => {
        if (!isEnd(data)) return false;
        this.#sawEnd = true;
        return true;
      },
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  take(): IteratorResult<T> | undefined {
    for (;;) {
      const out = this.#out;
      if (this.#head < out.length) {
        const value = out[this.#head++] as T;
        if (this.#head === out.length) {
          this.#out = NONE;
          this.#head = 0;
        }
        return { value, done: false };
      }
      if (this.#finished) return END;
      let bodyEnded = false;
      try {
        const r = this.#events.take();
        if (r === undefined) return undefined;
        if (r.done) {
          bodyEnded = true;
          this.#finished = true;
          this.#out = this.#assembler.end(this.#sawEnd ? 'done' : 'eof');
        } else {
          const step = this.#push(r.value.data);
          this.#out = step.events;
          if (step.done) {
            this.#finished = true;
            drainRest(this.#events, this.#response);
          }
        }
      } catch (error) {
        this.#finished = true;
        this.#out = NONE;
        if (!bodyEnded) this.#response.cancel().catch(noop);
        throw withPartialOutput(error, this.#assembler.hadOutput);
      }
    }
  }

  onReadable(wake: () => void): void {
    this.#events.onReadable(wake);
  }

  next(): Promise<IteratorResult<T>> {
    return nextOf(this);
  }

  async return(): Promise<IteratorResult<T>> {
    this.#out = NONE;
    this.#head = 0;
    if (!this.#finished) {
      this.#finished = true;
      await this.#response.cancel();
    }
    return END;
  }
}

function noop(): void {}
