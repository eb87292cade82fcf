/**
 * The AWS event-stream framing (application/vnd.amazon.eventstream), written here from the
 * wire description (prelude, headers, payload, two CRC32s), not with the SDK's codec: servers
 * of the reliability suite speak SageMaker's response stream on their own.
 */
import { crc32 } from 'node:zlib';

/** One event-stream message with string headers; `badCrc` corrupts the message CRC. */
export function eventMessage(headers: Record<string, string>, payload: Uint8Array, badCrc = false): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = Buffer.from(name, 'utf8');
    const v = Buffer.from(value, 'utf8');
    const h = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
    h.writeUInt8(n.length, 0);
    n.copy(h, 1);
    h.writeUInt8(7, 1 + n.length);
    h.writeUInt16BE(v.length, 2 + n.length);
    v.copy(h, 4 + n.length);
    parts.push(h);
  }
  const head = Buffer.concat(parts);
  const total = 12 + head.length + payload.byteLength + 4;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(head.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  head.copy(out, 12);
  Buffer.from(payload).copy(out, 12 + head.length);
  const crc = crc32(out.subarray(0, total - 4));
  out.writeUInt32BE(badCrc ? (crc ^ 0xffff) >>> 0 : crc, total - 4);
  return out;
}

/** A SageMaker `PayloadPart` event carrying `bytes`. */
export function payloadPart(bytes: Uint8Array, badCrc = false): Buffer {
  return eventMessage(
    { ':message-type': 'event', ':event-type': 'PayloadPart', ':content-type': 'application/octet-stream' },
    bytes,
    badCrc,
  );
}

/** A SageMaker modeled stream exception (`ModelStreamError` or `InternalStreamFailure`). */
export function streamException(type: 'ModelStreamError' | 'InternalStreamFailure', message: string): Buffer {
  return eventMessage(
    { ':message-type': 'exception', ':exception-type': type, ':content-type': 'application/json' },
    Buffer.from(JSON.stringify({ Message: message, ErrorCode: 'StreamBroken' })),
  );
}
