import { ProtocolError } from '../../errors/index.js';

/**
 * Largest JSON answer {@link readJsonBody} reads, in UTF-16 characters: 8,388,608, as for one
 * server-sent event. A transcript of hours is a few hundred thousand characters; a body that
 * goes on past this is not an answer, and reading it whole would only fill memory.
 */
export const MAX_JSON_BODY_CHARS = 8_388_608;

/**
 * Reads a whole response body and parses it as JSON (UTF-8), at most `maxChars` characters
 * (default {@link MAX_JSON_BODY_CHARS}). Throws ProtocolError (retryable) when it is not JSON,
 * or as soon as it grows past `maxChars` (the body is then closed: `return()` on its iterator);
 * the body itself is never put in the message.
 */
export async function readJsonBody(
  provider: string,
  body: AsyncIterable<Uint8Array>,
  maxChars = MAX_JSON_BODY_CHARS,
): Promise<unknown> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    text += decoder.decode(chunk, { stream: true });
    if (text.length > maxChars) {
      // Leaving the loop closes the body.
      throw new ProtocolError(`JSON response body larger than ${maxChars} characters at byte ${bytes}`, {
        provider,
        offset: bytes,
      });
    }
  }
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(`Malformed JSON response body (${text.length} chars)`, { provider, cause });
  }
}
