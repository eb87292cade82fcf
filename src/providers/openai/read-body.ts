import { ProtocolError } from '../../errors/index.js';

/**
 * Reads a whole response body and parses it as JSON (UTF-8). Throws ProtocolError
 * (retryable) when it is not JSON; the body itself is not put in the message.
 */
export async function readJsonBody(provider: string, body: AsyncIterable<Uint8Array>): Promise<unknown> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(`Malformed JSON response body (${text.length} chars)`, { provider, cause });
  }
}
