import { ProtocolError } from '../errors/index.js';

/** A close frame the client wrote: its status code and reason text. */
export interface SentClose {
  code: number;
  /** The reason as written (the client's own words, e.g. undici's "Invalid opcode received"). */
  reason: string;
}

/**
 * The close frame a client wrote, `chunk` being one write to its socket: a whole masked close
 * frame with a code (RFC 6455 §5.2, §5.5.1), else undefined. The reason is unmasked and kept to
 * printable ASCII (undici writes its own English text there; anything else is dropped).
 */
export function sentClose(chunk: unknown): SentClose | undefined {
  if (!(chunk instanceof Uint8Array) || chunk.length < 8) return undefined;
  const length = chunk[1]! & 0x7f;
  if (chunk[0] !== 0x88 || (chunk[1]! & 0x80) === 0 || length < 2 || chunk.length !== 6 + length)
    return undefined;
  const byte = (i: number) => chunk[6 + i]! ^ chunk[2 + (i % 4)]!;
  let reason = '';
  for (let i = 2; i < length; i++) {
    const c = byte(i);
    if (c < 0x20 || c > 0x7e) return { code: (byte(0) << 8) | byte(1), reason: '' };
    reason += String.fromCharCode(c);
  }
  return { code: (byte(0) << 8) | byte(1), reason };
}

/** What a client-sent close code says the provider sent (RFC 6455 §7.4.1). */
const FAILED_BY_CLIENT: Record<number, string> = {
  1002: 'a WebSocket frame that breaks the protocol (close 1002, Protocol Error)',
  1007: 'WebSocket data that is not valid for its type (close 1007, Invalid Payload Data)',
};

/**
 * The ProtocolError of a connection the client failed itself, after its close frame `sent`,
 * for what the provider sent: 1002 (a malformed frame: a reserved opcode or bit, a fragmented
 * control frame, a bad close frame) and 1007 (a text frame or close reason that is not UTF-8,
 * data that does not decompress). undici writes that close frame but reports only a close 1006
 * to the WebSocket's listeners, which would read as a lost connection. Retryable: another
 * provider may do better. The message names the code and the client's reason (undici's words,
 * e.g. "Received invalid UTF-8 in text frame."), never what the provider sent. Undefined for
 * any other code.
 */
export function failedByClientError(provider: string, sent: SentClose): ProtocolError | undefined {
  const what = FAILED_BY_CLIENT[sent.code];
  if (what === undefined) return undefined;
  const reason = sent.reason ? `: ${sent.reason}` : '';
  return new ProtocolError(`Provider '${provider}' sent ${what}${reason}`, { provider });
}
