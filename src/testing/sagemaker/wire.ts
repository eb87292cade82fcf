import type { MockErrorEvent } from '../mock-script.js';
import { encodeFrame } from './event-stream.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string part; bytes as they are. */
export function partBytes(part: string | Uint8Array): Uint8Array {
  return typeof part === 'string' ? encoder.encode(part) : part;
}

/**
 * A `PayloadPart` event message (PROTOCOLS.md 5.3): headers `:message-type: event`,
 * `:event-type: PayloadPart`, `:content-type: application/octet-stream`, the bytes as payload.
 * `extra` adds string headers (the bidirectional stream's `DataType`, `CompletionState`, 5.5).
 */
export function payloadPartMessage(bytes: Uint8Array, extra: Record<string, string> = {}): Uint8Array {
  return encodeFrame(
    {
      ':message-type': 'event',
      ':event-type': 'PayloadPart',
      ':content-type': 'application/octet-stream',
      ...extra,
    },
    bytes,
  );
}

/**
 * The message of a stream error after HTTP 200 (PROTOCOLS.md 5.3):
 * - type `ModelStreamError` (the default) or `InternalStreamFailure`: a modeled exception,
 *   `:message-type: exception`, `:exception-type: <type>`, `:content-type: application/json`,
 *   payload `{"Message", "ErrorCode"}` (`ErrorCode` only for ModelStreamError; default
 *   `ModelInvocationTimeExceeded`);
 * - any other type: an unmodeled error, `:message-type: error`, `:error-code: <type>`,
 *   `:error-message: <message>`, empty payload.
 */
export function streamErrorMessage(event: MockErrorEvent = {}): Uint8Array {
  const type = event.type ?? 'ModelStreamError';
  const message = event.message ?? 'mock stream error';
  if (type === 'ModelStreamError' || type === 'InternalStreamFailure') {
    const body: Record<string, unknown> = { Message: message };
    if (type === 'ModelStreamError') body.ErrorCode = String(event.code ?? 'ModelInvocationTimeExceeded');
    return encodeFrame(
      { ':message-type': 'exception', ':exception-type': type, ':content-type': 'application/json' },
      encoder.encode(JSON.stringify(body)),
    );
  }
  return encodeFrame(
    { ':message-type': 'error', ':error-code': type, ':error-message': message },
    new Uint8Array(0),
  );
}

/** A copy of an encoded message whose message CRC32 (its last 4 bytes) is wrong. */
export function corruptMessage(message: Uint8Array): Uint8Array {
  const copy = message.slice();
  const last = copy.length - 1;
  copy[last] = (copy[last]! ^ 0xff) & 0xff;
  return copy;
}

/** `parts` joined into one array. */
export function joinParts(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const p of parts) {
    joined.set(p, offset);
    offset += p.byteLength;
  }
  return joined;
}

/** `parts` joined and cut again into pieces of `size` bytes (the last may be shorter). */
export function recut(parts: Uint8Array[], size: number | undefined): Uint8Array[] {
  if (!size || size <= 0) return parts;
  const joined = joinParts(parts);
  const total = joined.byteLength;
  const out: Uint8Array[] = [];
  for (let i = 0; i < total; i += size) out.push(joined.subarray(i, Math.min(total, i + size)));
  return out;
}
