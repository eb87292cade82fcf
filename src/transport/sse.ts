import type { EventSourceParser, ParseError } from 'eventsource-parser';
import { ProtocolError } from '../errors/index.js';
import { lazy } from '../internal/lazy.js';
import { requirePackage } from '../internal/require-package.js';
import { nextOf, type Takeable, takeableOf } from '../internal/takeable.js';

/**
 * eventsource-parser's `createParser`, loaded on the first {@link parseSse} (about 10 ms) rather
 * than when voxroute is imported; later streams pay one cached lookup.
 */
const createParser = lazy(
  () => requirePackage<typeof import('eventsource-parser')>('eventsource-parser').createParser,
);

/** One server-sent event. `event` and `id` are absent when the event had no such field. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** Options of {@link parseSse}. */
export interface ParseSseOptions {
  /**
   * Called for each comment line (`: ping`, `:`), with its text after the colon. Comments yield
   * no event; the transport's idle deadline already counts their bytes as activity.
   */
  onComment?: (comment: string) => void;
  /** Provider name for errors. */
  provider?: string;
  /** Largest event (data plus a partial line) buffered, in UTF-16 characters. Default: 8,388,608. */
  maxEventChars?: number;
}

const END: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });
const STREAM = { stream: true };
const LINE_START = 0;
const IN_COMMENT = 1;

/**
 * Parses a `text/event-stream` body into events, with eventsource-parser (v3) doing the line
 * and field parsing. Behaviour:
 * - line ends CRLF, LF and bare CR, mixed in one body, and a CRLF split across two chunks all
 *   give the same events;
 * - UTF-8 split across chunks is decoded correctly (one streaming TextDecoder); a BOM is dropped;
 * - comments (`: ping`, `:`) give no event and call `onComment`; an event whose data is empty
 *   is not delivered (as in the WHATWG EventSource algorithm), so no empty event reaches a JSON
 *   layer;
 * - lenient end (a decision, stricter than the SSE spec, like openai-node's fix for the same problem): when
 *   the body ends in the middle of an event (its last line without a line end, or without the
 *   blank line after it), that event is still delivered; a tail that holds only comments gives
 *   nothing;
 * - a body that ends without having produced any event although it held something other than
 *   comments and blank lines (for example plain text or JSON sent as an event stream) throws
 *   ProtocolError (retryable, `offset` = bytes read) instead of ending cleanly;
 * - an event larger than `maxEventChars` throws ProtocolError and closes the body.
 * Errors of the body (timeouts, cut connection, abort) pass through unchanged. Breaking out of
 * the iteration (`return()`) calls the body's `return()`, which closes the connection.
 *
 * The iterator also has a synchronous side (`take()`, `onReadable()`, internal to voxroute):
 * over the transport's own body, an event whose bytes are already read is taken by plain
 * calls, without a promise.
 *
 * @param body Response body bytes (e.g. `HttpResponse.body`).
 * @returns An async iterable of the events; iterate it once.
 */
export function parseSse(
  body: AsyncIterable<Uint8Array>,
  options: ParseSseOptions = {},
): AsyncIterableIterator<SseEvent> & Takeable<SseEvent> {
  return new SseStream(takeableOf(body[Symbol.asyncIterator]()), options);
}

class SseStream implements AsyncIterableIterator<SseEvent>, Takeable<SseEvent> {
  private readonly source: Takeable<Uint8Array>;
  private readonly options: ParseSseOptions;
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private readonly events: SseEvent[] = [];
  private head = 0;
  private finished = false;
  private pending: Promise<IteratorResult<SseEvent, undefined>> | undefined;
  private bytes = 0;
  private sawEvent = false;
  private sawContent = false;
  private scan = LINE_START;
  private failure: ProtocolError | undefined;

  constructor(source: Takeable<Uint8Array>, options: ParseSseOptions) {
    this.source = source;
    this.options = options;
    this.parser = createParser()({
      onEvent: (event) => {
        this.sawEvent = true;
        if (event.data === '') return;
        const out: SseEvent = { data: event.data };
        if (event.event !== undefined) out.event = event.event;
        if (event.id !== undefined) out.id = event.id;
        this.events.push(out);
      },
      onComment: options.onComment,
      onError: (error: ParseError) => {
        if (error.type === 'max-buffer-size-exceeded') {
          this.failure = new ProtocolError(
            `Server-sent event larger than ${this.maxChars()} characters at byte ${this.bytes}`,
            { provider: options.provider, offset: this.bytes, cause: error },
          );
        }
        // Unknown fields and invalid `retry` values are ignored, as the SSE spec says.
      },
      maxBufferSize: this.maxChars(),
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<SseEvent> {
    return this;
  }

  /** The next event when its bytes are read, or the end; throws a failure; undefined: nothing yet. */
  take(): IteratorResult<SseEvent, undefined> | undefined {
    if (this.head < this.events.length) return { value: this.shift(), done: false };
    if (this.finished) return END;
    const source = this.source;
    for (;;) {
      let result: IteratorResult<Uint8Array> | undefined;
      try {
        result = source.take();
      } catch (error) {
        this.finished = true;
        throw error;
      }
      if (result === undefined) return undefined;
      if (result.done) return this.finish();
      this.feed(result.value);
      if (this.head < this.events.length) return { value: this.shift(), done: false };
    }
  }

  onReadable(wake: () => void): void {
    this.source.onReadable(wake);
  }

  next(): Promise<IteratorResult<SseEvent, undefined>> {
    if (this.pending) return this.pending.then(() => this.next());
    let now: IteratorResult<SseEvent, undefined> | undefined;
    try {
      now = this.take();
    } catch (error) {
      return Promise.reject(error);
    }
    if (now !== undefined) return Promise.resolve(now);
    const pending = nextOf<SseEvent>(this) as Promise<IteratorResult<SseEvent, undefined>>;
    this.pending = pending;
    const clear = (): void => {
      if (this.pending === pending) this.pending = undefined;
    };
    pending.then(clear, clear);
    return pending;
  }

  async return(): Promise<IteratorResult<SseEvent, undefined>> {
    const wasFinished = this.finished;
    this.finished = true;
    this.events.length = 0;
    this.head = 0;
    if (!wasFinished) await this.source.return?.();
    return END;
  }

  private feed(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    const text = this.decoder.decode(chunk, STREAM);
    if (!this.sawEvent && !this.sawContent) this.scanForContent(text);
    this.parser.feed(text);
    if (this.failure) this.abandon();
  }

  /** The body ended: flush the decoder and any event still pending (lenient end). */
  private finish(): IteratorResult<SseEvent, undefined> {
    this.finished = true;
    const rest = this.decoder.decode();
    if (rest !== '') {
      if (!this.sawEvent && !this.sawContent) this.scanForContent(rest);
      this.parser.feed(rest);
      if (this.failure) throw this.failure;
    }
    // Ends the last line (a bare CR kept in case an LF follows becomes CRLF) and the event.
    this.parser.feed('\n\n');
    if (this.head < this.events.length) return { value: this.shift(), done: false };
    if (!this.sawEvent && this.sawContent) {
      throw new ProtocolError(
        `Event stream ended after ${this.bytes} bytes without a single event (not server-sent events?)`,
        { provider: this.options.provider, offset: this.bytes },
      );
    }
    return END;
  }

  private abandon(): never {
    this.finished = true;
    this.events.length = 0;
    this.head = 0;
    void Promise.resolve(this.source.return?.()).catch(() => undefined);
    throw this.failure;
  }

  private shift(): SseEvent {
    const event = this.events[this.head] as SseEvent;
    this.head++;
    if (this.head === this.events.length) {
      this.events.length = 0;
      this.head = 0;
    }
    return event;
  }

  /** Notes whether the body holds anything but comments and blank lines (until the first event). */
  private scanForContent(text: string): void {
    let state = this.scan;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        state = LINE_START;
      } else if (state === LINE_START) {
        if (c !== 58 /* : */) {
          this.sawContent = true;
          return;
        }
        state = IN_COMMENT;
      }
    }
    this.scan = state;
  }

  private maxChars(): number {
    return this.options.maxEventChars ?? 8_388_608;
  }
}
