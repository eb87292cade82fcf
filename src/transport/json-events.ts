import { ProtocolError } from '../errors/index.js';
import { nextOf, type Takeable, takeableOf } from '../internal/takeable.js';
import { drainRest } from './drain-rest.js';
import type { SseEvent } from './sse.js';
import { errorFromStreamPayload, isStreamErrorPayload } from './stream-error.js';
import type { HttpResponse } from './types.js';

/** A server-sent event whose data was JSON. */
export interface JsonEvent {
  event?: string;
  id?: string;
  /** The event's data, JSON-parsed. */
  data: unknown;
}

/** Options of {@link parseJsonEvents}. */
export interface ParseJsonEventsOptions {
  /** Provider name for errors. */
  provider?: string;
  /**
   * Tells the end-of-stream sentinel from the raw data, which is then never JSON-parsed.
   * Default: {@link isDoneSentinel} (`[DONE]` after trimming).
   */
  isDone?: (data: string) => boolean;
  /**
   * When true, a body that ends without the sentinel throws ProtocolError (truncated,
   * retryable). Default: false (for streams whose end marker is a JSON event, e.g. Anthropic's
   * `message_stop` or Cartesia's `done`, which the adapter checks).
   */
  requireDone?: boolean;
  /**
   * When true (the default), an error reported inside the stream (`event: error`, a JSON `error`
   * key, `{"type":"error"}`) is thrown as the ProviderError of {@link errorFromStreamPayload}
   * with `partialOutput` true when an event had been yielded before it.
   */
  detectErrors?: boolean;
  /**
   * The response the events are read from. After the sentinel the rest of the body is drained
   * in the background for connection reuse; with the response, a body still open
   * `AFTER_END_MS` (1 s) later is closed instead (HttpResponse.endWithin).
   */
  response?: Pick<HttpResponse, 'endWithin'>;
}

const END: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * True for the OpenAI-style end-of-stream sentinel: data `[DONE]`, ignoring surrounding
 * whitespace (servers pad it). Source: PROTOCOLS.md 2.2, 6.1.
 */
export function isDoneSentinel(data: string): boolean {
  return data.length < 32 && data.trim() === '[DONE]';
}

/**
 * The JSON events of an SSE stream (from {@link parseSse}), in order.
 * - The sentinel (`isDone`, default `[DONE]` after trimming) is never JSON-parsed: it ends the
 *   iteration at once. The rest of the body is then read in the background (at most 64
 *   more events) so the keep-alive connection can be reused; failures there are ignored.
 * - Data that is not JSON throws ProtocolError (retryable; the message gives its length, never
 *   the payload) and closes the body.
 * - An error event inside the stream throws ProviderError (see `detectErrors`) and closes the body.
 * - With `requireDone`, a body that ends without the sentinel throws ProtocolError (truncated).
 * Errors of the event stream itself pass through unchanged; `return()` closes the body.
 * Like {@link parseSse}'s, the iterator has a synchronous side (`take()`, internal to voxroute):
 * over `parseSse` of the transport's body, an event already read is parsed without a promise.
 *
 * @param events The event stream.
 * @param options See {@link ParseJsonEventsOptions}.
 */
export function parseJsonEvents(
  events: AsyncIterable<SseEvent>,
  options: ParseJsonEventsOptions = {},
): AsyncIterableIterator<JsonEvent> & Takeable<JsonEvent> {
  return new JsonEventStream(takeableOf(events[Symbol.asyncIterator]()), options);
}

class JsonEventStream implements AsyncIterableIterator<JsonEvent>, Takeable<JsonEvent> {
  private readonly source: Takeable<SseEvent>;
  private readonly options: ParseJsonEventsOptions;
  private readonly isDone: (data: string) => boolean;
  private finished = false;
  private yielded = 0;

  constructor(source: Takeable<SseEvent>, options: ParseJsonEventsOptions) {
    this.source = source;
    this.options = options;
    this.isDone = options.isDone ?? isDoneSentinel;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<JsonEvent> {
    return this;
  }

  /** The next event when it is read, or the end; throws a failure; undefined: nothing yet. */
  take(): IteratorResult<JsonEvent, undefined> | undefined {
    if (this.finished) return END;
    let result: IteratorResult<SseEvent> | undefined;
    try {
      result = this.source.take();
    } catch (error) {
      this.finished = true;
      throw error;
    }
    return result === undefined ? undefined : this.onEvent(result);
  }

  onReadable(wake: () => void): void {
    this.source.onReadable(wake);
  }

  next(): Promise<IteratorResult<JsonEvent, undefined>> {
    return nextOf<JsonEvent>(this) as Promise<IteratorResult<JsonEvent, undefined>>;
  }

  async return(): Promise<IteratorResult<JsonEvent, undefined>> {
    if (!this.finished) {
      this.finished = true;
      await this.source.return?.();
    }
    return END;
  }

  private onEvent(result: IteratorResult<SseEvent>): IteratorResult<JsonEvent, undefined> {
    if (this.finished) return END;
    if (result.done) {
      this.finished = true;
      if (this.options.requireDone) {
        throw new ProtocolError('Event stream ended without its end marker (truncated)', {
          provider: this.options.provider,
          partialOutput: this.yielded > 0,
        });
      }
      return END;
    }
    const { data, event, id } = result.value;
    if (this.isDone(data)) {
      this.finished = true;
      drainRest(this.source, this.options.response);
      return END;
    }
    const detectErrors = this.options.detectErrors ?? true;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (cause) {
      if (detectErrors && event === 'error') this.fail(data, event);
      this.close();
      throw new ProtocolError(`Server-sent event data is not JSON (${data.length} characters)`, {
        provider: this.options.provider,
        partialOutput: this.yielded > 0,
        cause,
      });
    }
    if (detectErrors && isStreamErrorPayload(json, event)) this.fail(json, event);
    this.yielded++;
    const out: JsonEvent = { data: json };
    if (event !== undefined) out.event = event;
    if (id !== undefined) out.id = id;
    return { value: out, done: false };
  }

  private fail(payload: unknown, event: string | undefined): never {
    this.close();
    throw errorFromStreamPayload(this.options.provider ?? 'unknown', payload, event, this.yielded > 0);
  }

  private close(): void {
    this.finished = true;
    void Promise.resolve(this.source.return?.()).catch(noop);
  }
}

function noop(): void {}
