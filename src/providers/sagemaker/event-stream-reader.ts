import { ProtocolError } from '../../errors/index.js';
import type { EventStreamMessageCodec, Message } from './event-stream.js';

/** Prelude (total length, headers length, prelude CRC32) plus the message CRC32, in bytes. */
const OVERHEAD = 16;
/**
 * Largest message accepted, in bytes: 24 MiB, a bound voxroute sets far above any payload part a
 * model server streams. A larger announced length (bytes 0-3 of the prelude, PROTOCOLS.md 5.2)
 * is a malformed prelude, not a reason to buffer without bound.
 */
export const MAX_EVENT_STREAM_MESSAGE_BYTES = 24 * 1024 * 1024;

/**
 * What is wrong with a message length a prelude announces (bytes 0-3, in bytes), as the end of
 * a sentence starting "Event stream", or undefined when it is 16 to
 * {@link MAX_EVENT_STREAM_MESSAGE_BYTES}.
 */
export function messageLengthProblem(length: number): string | undefined {
  if (length >= OVERHEAD && length <= MAX_EVENT_STREAM_MESSAGE_BYTES) return undefined;
  return `announces a message of ${length} bytes (must be ${OVERHEAD} to ${MAX_EVENT_STREAM_MESSAGE_BYTES})`;
}

/**
 * Reassembles `application/vnd.amazon.eventstream` messages from a body that arrives in
 * arbitrary chunks (an HTTP/2 DATA frame may hold part of a message, or several), and decodes
 * each whole message with `codec.decode` (both CRC32s checked). The codec's own `feed` takes one
 * whole message per call, so it cannot be given raw chunks.
 *
 * `push(bytes)` returns the messages completed by `bytes`, in order; it throws ProtocolError
 * (`offset` = the body offset of the message) for a message whose prelude announces fewer than
 * 16 or more than {@link MAX_EVENT_STREAM_MESSAGE_BYTES} bytes, or that the codec rejects (bad
 * CRC, bad headers); after an error the reader is spent and throws it again. `end()` throws
 * ProtocolError (truncated, retryable) when the body ended inside a message.
 */
export class EventStreamReader {
  private readonly codec: EventStreamMessageCodec;
  private readonly provider: string | undefined;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Body offset of the first byte held in `pending`. */
  private offset = 0;
  private failure: ProtocolError | undefined;

  constructor(codec: EventStreamMessageCodec, provider?: string) {
    this.codec = codec;
    this.provider = provider;
  }

  /** Bytes of an incomplete message held, waiting for the rest. */
  get buffered(): number {
    return this.pendingBytes;
  }

  push(bytes: Uint8Array): Message[] {
    if (this.failure) throw this.failure;
    if (bytes.byteLength === 0) return [];
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    const messages: Message[] = [];
    for (;;) {
      if (this.pendingBytes < 4) return messages;
      const head = this.take(4, false);
      const length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
      const problem = messageLengthProblem(length);
      if (problem !== undefined) throw this.fail(problem);
      if (this.pendingBytes < length) return messages;
      const whole = this.take(length, true);
      try {
        messages.push(this.codec.decode(whole));
      } catch (cause) {
        throw this.fail('holds a malformed message', cause, length);
      }
      this.offset += length;
    }
  }

  end(): void {
    if (this.failure) throw this.failure;
    if (this.pendingBytes > 0) {
      this.failure = new ProtocolError(
        `Event stream ended inside a message (${this.pendingBytes} bytes of it received; truncated)`,
        { provider: this.provider, offset: this.offset },
      );
      throw this.failure;
    }
  }

  /** The first `n` held bytes, as one array; removed from `pending` when `consume`. */
  private take(n: number, consume: boolean): Uint8Array {
    const first = this.pending[0]!;
    let out: Uint8Array;
    if (first.byteLength >= n) {
      out = first.subarray(0, n);
    } else {
      out = new Uint8Array(n);
      let at = 0;
      for (const part of this.pending) {
        const piece = part.subarray(0, Math.min(part.byteLength, n - at));
        out.set(piece, at);
        at += piece.byteLength;
        if (at === n) break;
      }
    }
    if (consume) this.drop(n);
    return out;
  }

  private drop(n: number): void {
    let left = n;
    while (left > 0) {
      const first = this.pending[0]!;
      if (first.byteLength <= left) {
        this.pending.shift();
        left -= first.byteLength;
      } else {
        this.pending[0] = first.subarray(left);
        left = 0;
      }
    }
    this.pendingBytes -= n;
  }

  private fail(what: string, cause?: unknown, length?: number): ProtocolError {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    this.failure = new ProtocolError(
      `Event stream ${what} at byte ${this.offset}${length === undefined ? '' : ` (${length} bytes)`}${detail}`,
      { provider: this.provider, offset: this.offset, ...(cause === undefined ? {} : { cause }) },
    );
    this.pending = [];
    this.pendingBytes = 0;
    return this.failure;
  }
}
