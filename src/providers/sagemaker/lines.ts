import { ProtocolError } from '../../errors/index.js';
import { checkAsyncIterable, checkOptionalObject, checkString } from '../../internal/arg-checks.js';

/** Options of {@link splitLines}. */
export interface SplitLinesOptions {
  /** Provider name for errors. */
  provider?: string;
  /**
   * Longest line, in UTF-16 characters without its line end: a longer one throws, whether it
   * came in one chunk or many. A whole number >= 1. Default: 8,388,608.
   */
  maxLineChars?: number;
}

const STREAM = { stream: true };

/**
 * The lines of a byte stream (JSON lines, NDJSON), in order, without their line ends.
 * - A line ends at LF; a CR before it is dropped (CRLF). A bare CR is no line end: NDJSON and
 *   JSON Lines end lines with LF only (server-sent events, which also end lines with a bare CR,
 *   are read by the transport's SSE parser instead). Lines that are empty or only whitespace
 *   are skipped.
 * - Bytes are decoded with one streaming TextDecoder, so a character split across chunks
 *   (PayloadParts, TCP reads) is decoded correctly; a BOM is dropped.
 * - Several lines in one chunk and a line split across many chunks give the same lines.
 * - At the end of the stream the last line is yielded even without a line end, and the
 *   iteration ends: it never waits for a newline that cannot come.
 * - A line longer than `maxLineChars` throws ProtocolError (retryable, `offset` = bytes read),
 *   however the stream is cut: a whole line within one chunk as well as one still buffered.
 * Errors of the source pass through unchanged; breaking out of the iteration closes it.
 * @throws RangeError at the first step when `maxLineChars` is not a whole number >= 1; TypeError
 *   at the first step when `source` is not an async iterable, `options` not an object, or
 *   `provider` given but not a string.
 *
 * @param source Bytes, e.g. the PayloadPart bytes of a SageMaker response stream.
 */
export async function* splitLines(
  source: AsyncIterable<Uint8Array>,
  options: SplitLinesOptions = {},
): AsyncGenerator<string, void, undefined> {
  checkAsyncIterable('splitLines(source, options?): source', 'an async iterable of Uint8Array', source);
  checkOptionalObject('splitLines: options', 'an object ({ provider?, maxLineChars? })', options);
  if (options.provider !== undefined) checkString('splitLines: options.provider', options.provider);
  const decoder = new TextDecoder();
  const max = options.maxLineChars ?? 8_388_608;
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`splitLines: maxLineChars must be a whole number >= 1, got ${String(max)}`);
  let pending = '';
  let bytes = 0;
  const tooLong = () =>
    new ProtocolError(`Line longer than ${max} characters at byte ${bytes}`, {
      provider: options.provider,
      offset: bytes,
    });
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    pending += decoder.decode(chunk, STREAM);
    let start = 0;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
      const line = lineAt(pending, start, end);
      start = end + 1;
      if (line !== undefined && line.length > max) throw tooLong();
      if (line !== undefined) yield line;
    }
    pending = start === 0 ? pending : pending.slice(start);
    // A line still open longer than the limit: its end would not make it shorter.
    if (pending.length > max + 1) throw tooLong();
  }
  pending += decoder.decode();
  const last = lineAt(pending, 0, pending.length);
  if (last !== undefined && last.length > max) throw tooLong();
  if (last !== undefined) yield last;
}

/** The line in `text[start, end)` without a trailing CR, or undefined when it is blank. */
function lineAt(text: string, start: number, end: number): string | undefined {
  const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  const line = text.slice(start, stop);
  return line.trim() === '' ? undefined : line;
}
