import { ProtocolError } from '../../errors/index.js';
import { argTypeError, checkAsyncIterable, checkObject, checkString } from '../../internal/arg-checks.js';
// The modules themselves, not transport/index.js: the payload codecs load with the package entry
// (registerSageMakerCodec), and the barrel would bring every transport's code into it.
import { isDoneSentinel, parseJsonEvents } from '../../transport/json-events.js';
import { parseSse } from '../../transport/sse.js';
import { errorFromStreamPayload, isStreamErrorPayload } from '../../transport/stream-error.js';
import { peekFirstByte } from '../shared/first-byte.js';
import { splitLines } from './lines.js';

/**
 * How JSON messages are framed inside the PayloadPart bytes:
 * - `'sse'`: server-sent events (`data: <json>\n\n`), as vLLM, LMI and TGI stream them;
 * - `'jsonlines'`: one JSON value per line (LMI `jsonlines`, NDJSON);
 * - `'auto'`: `'jsonlines'` when the first non-blank byte is `{` or `[`, else `'sse'`.
 */
export type MessageFraming = 'sse' | 'jsonlines' | 'auto';

const FRAMINGS: readonly unknown[] = ['sse', 'jsonlines', 'auto'];

/** One message of {@link jsonMessages}: a parsed JSON value, or the `[DONE]` sentinel. */
export type JsonMessage = { kind: 'json'; event: string | undefined; value: unknown } | { kind: 'done' };

/** Options of {@link jsonMessages}. */
export interface JsonMessagesOptions {
  /** Provider name for errors. */
  provider: string;
  /** Framing of the messages. Default `'auto'`. */
  framing?: MessageFraming;
  /**
   * When true (the default) a message that reports an error (`{"error":...}`,
   * `{"type":"error",...}`, an SSE `event: error`) throws the transport's ProviderError
   * (`errorFromStreamPayload`) instead of being yielded.
   */
  detectErrors?: boolean;
}

/**
 * The JSON messages inside a byte stream (the PayloadPart bytes of a SageMaker response), in
 * order, with one framing code shared with the HTTP providers:
 * - SSE goes through the transport's `parseSse` and `parseJsonEvents`: events split across
 *   parts, several events in one part, UTF-8 split across parts, comments, and a last event
 *   without its blank line are all handled there;
 * - JSON lines go through {@link splitLines}, which ends cleanly on a last line without a
 *   newline;
 * - `[DONE]` (an SSE data or a line, trimmed) yields `{kind:'done'}` and ends the iteration.
 * Throws ProtocolError (retryable) for a message that is not JSON (its length is given, never
 * its text) and ProviderError for an error message (see `detectErrors`). `partialOutput` on
 * these is false: the adapter sets it from what it yielded. Breaking out closes the source.
 * Throws TypeError at the first step, before reading anything, when `source` is not an async
 * iterable, `options` is not an object with a string `provider`, or `framing` is not `'sse'`,
 * `'jsonlines'` or `'auto'`.
 *
 * @param source The PayloadPart bytes.
 */
export async function* jsonMessages(
  source: AsyncIterable<Uint8Array>,
  options: JsonMessagesOptions,
): AsyncGenerator<JsonMessage, void, undefined> {
  checkAsyncIterable(
    'jsonMessages(source, options): source',
    'an async iterable of Uint8Array (the PayloadPart bytes)',
    source,
  );
  checkObject(
    'jsonMessages(source, options): options',
    'an object ({ provider, framing?, detectErrors? })',
    options,
  );
  checkString('jsonMessages: options.provider', options.provider);
  if (options.framing !== undefined && !FRAMINGS.includes(options.framing))
    throw argTypeError('jsonMessages: options.framing', "'sse', 'jsonlines' or 'auto'", options.framing);
  const { provider } = options;
  const detectErrors = options.detectErrors ?? true;
  let framing = options.framing ?? 'auto';
  let body = source;
  if (framing === 'auto') {
    const sniffed = await sniff(source);
    framing = sniffed.framing;
    body = sniffed.body;
  }
  if (framing === 'sse') {
    let sawDone = false;
    const events = parseJsonEvents(parseSse(body, { provider }), {
      provider,
      detectErrors,
      isDone: (data) => {
        if (!isDoneSentinel(data)) return false;
        sawDone = true;
        return true;
      },
    });
    for await (const event of events) yield { kind: 'json', event: event.event, value: event.data };
    if (sawDone) yield { kind: 'done' };
    return;
  }
  for await (const line of splitLines(body, { provider })) {
    const text = line.startsWith('data:') ? line.slice(5) : line;
    if (isDoneSentinel(text)) {
      yield { kind: 'done' };
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new ProtocolError(`JSON line is not JSON (${text.length} characters)`, { provider, cause });
    }
    if (detectErrors && isStreamErrorPayload(value)) {
      throw errorFromStreamPayload(provider, value, undefined, false);
    }
    yield { kind: 'json', event: undefined, value };
  }
}

/**
 * Reads chunks until the first non-blank byte tells the framing (`{` or `[`: JSON lines, else
 * SSE; JSON lines when the body ends first), then returns a body that replays the chunks read
 * so far followed by the rest of `source`.
 */
async function sniff(
  source: AsyncIterable<Uint8Array>,
): Promise<{ framing: 'sse' | 'jsonlines'; body: AsyncIterable<Uint8Array> }> {
  const { first, body } = await peekFirstByte(source);
  const framing =
    first === undefined || first === 0x7b /* { */ || first === 0x5b /* [ */ ? 'jsonlines' : 'sse';
  return { framing, body };
}
