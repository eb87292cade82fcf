import { crc32 } from 'node:zlib';

/**
 * The emulator's own `application/vnd.amazon.eventstream` framing, written from the byte layout
 * (PROTOCOLS.md 5.2) and sharing no code with the adapter's codec, so that a mistake there
 * cannot hide behind the same mistake here:
 *
 * ```
 * uint32 BE total length | uint32 BE headers length | uint32 BE CRC32(bytes 0..8)
 * headers | payload | uint32 BE CRC32(bytes 0..total-4)
 * ```
 *
 * A header is `uint8 name length | name | uint8 type | value`; see {@link FrameHeader}.
 */

/**
 * A decoded header value, by wire type: 0/1 bool, 2 byte, 3 short, 4 integer, 5 long (as a
 * bigint), 6 byte array, 7 string, 8 timestamp (ms since the epoch), 9 UUID (16 bytes).
 */
export type FrameHeader =
  | { type: 'boolean'; value: boolean }
  | { type: 'number'; value: number }
  | { type: 'long'; value: bigint }
  | { type: 'binary'; value: Uint8Array }
  | { type: 'string'; value: string }
  | { type: 'timestamp'; value: number }
  | { type: 'uuid'; value: Uint8Array };

/** One decoded message: its headers by name and its payload. */
export interface Frame {
  headers: Record<string, FrameHeader>;
  payload: Uint8Array;
}

const PRELUDE = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A message with string headers (type 7) only, the only kind the emulator sends. */
export function encodeFrame(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const entries = Object.entries(headers).map(([name, value]) => [
    encoder.encode(name),
    encoder.encode(value),
  ]);
  const headersLength = entries.reduce(
    (n, [name, value]) => n + 1 + name!.byteLength + 3 + value!.byteLength,
    0,
  );
  const total = PRELUDE + headersLength + payload.byteLength + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let at = PRELUDE;
  for (const [name, value] of entries) {
    out[at++] = name!.byteLength;
    out.set(name!, at);
    at += name!.byteLength;
    out[at++] = 7;
    view.setUint16(at, value!.byteLength);
    at += 2;
    out.set(value!, at);
    at += value!.byteLength;
  }
  out.set(payload, at);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/** The string value of header `name`, if it is a string header. */
export function frameString(frame: Frame, name: string): string | undefined {
  const header = frame.headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

/** Decodes exactly one whole message; throws on a bad length, CRC or header. */
export function decodeFrame(bytes: Uint8Array): Frame {
  if (bytes.byteLength < PRELUDE + 4) throw new Error(`message of ${bytes.byteLength} bytes is too short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.getUint32(0);
  const headersLength = view.getUint32(4);
  if (total !== bytes.byteLength) throw new Error(`message length ${total} but ${bytes.byteLength} bytes`);
  if (view.getUint32(8) !== crc32(bytes.subarray(0, 8))) throw new Error('prelude CRC32 mismatch');
  if (view.getUint32(total - 4) !== crc32(bytes.subarray(0, total - 4)))
    throw new Error('message CRC32 mismatch');
  if (PRELUDE + headersLength > total - 4)
    throw new Error(`headers length ${headersLength} past the message`);
  const headers: Record<string, FrameHeader> = {};
  const end = PRELUDE + headersLength;
  let at = PRELUDE;
  const need = (n: number) => {
    if (at + n > end) throw new Error('header runs past the headers section');
  };
  while (at < end) {
    need(1);
    const nameLength = bytes[at++]!;
    need(nameLength + 1);
    const name = decoder.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = bytes[at++]!;
    const sized = () => {
      need(2);
      const length = view.getUint16(at);
      at += 2;
      need(length);
      const value = bytes.slice(at, at + length);
      at += length;
      return value;
    };
    const fixed = (n: number) => {
      need(n);
      const from = at;
      at += n;
      return from;
    };
    switch (type) {
      case 0:
      case 1:
        headers[name] = { type: 'boolean', value: type === 0 };
        break;
      case 2:
        headers[name] = { type: 'number', value: view.getInt8(fixed(1)) };
        break;
      case 3:
        headers[name] = { type: 'number', value: view.getInt16(fixed(2)) };
        break;
      case 4:
        headers[name] = { type: 'number', value: view.getInt32(fixed(4)) };
        break;
      case 5:
        headers[name] = { type: 'long', value: view.getBigInt64(fixed(8)) };
        break;
      case 6:
        headers[name] = { type: 'binary', value: sized() };
        break;
      case 7:
        headers[name] = { type: 'string', value: decoder.decode(sized()) };
        break;
      case 8:
        headers[name] = { type: 'timestamp', value: Number(view.getBigInt64(fixed(8))) };
        break;
      case 9: {
        const from = fixed(16);
        headers[name] = { type: 'uuid', value: bytes.slice(from, from + 16) };
        break;
      }
      default:
        throw new Error(`header ${name} has unknown type ${type}`);
    }
  }
  return { headers, payload: bytes.slice(end, total - 4) };
}

/**
 * Reassembles messages from chunks cut anywhere: `push` a chunk, get back every message it
 * completed, in order. Throws on a malformed message.
 */
export class FrameReader {
  private buffered = new Uint8Array(0);

  push(chunk: Uint8Array): Frame[] {
    const joined = new Uint8Array(this.buffered.byteLength + chunk.byteLength);
    joined.set(this.buffered);
    joined.set(chunk, this.buffered.byteLength);
    const frames: Frame[] = [];
    let at = 0;
    while (joined.byteLength - at >= 4) {
      const total = new DataView(joined.buffer, at, 4).getUint32(0);
      if (total < PRELUDE + 4) throw new Error(`message length ${total} is below the minimum of 16`);
      if (joined.byteLength - at < total) break;
      frames.push(decodeFrame(joined.subarray(at, at + total)));
      at += total;
    }
    this.buffered = joined.slice(at);
    return frames;
  }
}
