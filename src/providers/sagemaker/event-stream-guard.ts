import { messageLengthProblem } from './event-stream-reader.js';

/**
 * The `code` of the error a response body fails with when an event-stream prelude announces a
 * message length out of bounds (see {@link guardEventStream}); errors.ts maps it to a
 * ProtocolError.
 */
export const EVENT_STREAM_LENGTH_CODE = 'VOXROUTE_EVENT_STREAM_LENGTH';

/**
 * The `code` of the error a response body fails with when it ends inside an event-stream
 * message (see {@link guardEventStream}); errors.ts maps it to a truncated ProtocolError.
 */
export const EVENT_STREAM_CUT_CODE = 'VOXROUTE_EVENT_STREAM_CUT';

/**
 * The chunks of an `application/vnd.amazon.eventstream` body, unchanged, checked on the way by
 * the message boundaries (PROTOCOLS.md 5.2); only the 4 length bytes of each message are read,
 * the rest is skipped by count:
 * - the length each message's prelude announces must be 16 bytes to
 *   `MAX_EVENT_STREAM_MESSAGE_BYTES` (24 MiB), the bound the bidirectional path's
 *   `EventStreamReader` applies. The AWS SDK's decoder allocates and fills a buffer of whatever
 *   length a prelude announces (2 GiB if it says so), so the check comes before it sees the
 *   bytes: what precedes that message in its chunk is yielded, then the iterator throws an
 *   Error with `code` {@link EVENT_STREAM_LENGTH_CODE} and `offset` (the body offset of the
 *   message) and stops reading the body (its stream is destroyed);
 * - a body that ends inside a message (even inside its length field, which the SDK's decoder
 *   takes for a clean end) throws an Error with `code` {@link EVENT_STREAM_CUT_CODE} and
 *   `offset` (the body offset of that message) instead of ending.
 */
export async function* guardEventStream(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  let offset = 0; // body offset of the next chunk's first byte
  let messageStart = 0; // body offset of the message being read
  let remaining = 0; // bytes of the current message after its length field still to come
  const head = new Uint8Array(4);
  let headBytes = 0; // length-field bytes of the next message seen so far
  for await (const chunk of body) {
    let at = 0;
    while (at < chunk.byteLength) {
      if (remaining > 0) {
        const skip = Math.min(remaining, chunk.byteLength - at);
        remaining -= skip;
        at += skip;
        continue;
      }
      if (headBytes === 0) messageStart = offset + at;
      const take = Math.min(4 - headBytes, chunk.byteLength - at);
      head.set(chunk.subarray(at, at + take), headBytes);
      headBytes += take;
      at += take;
      if (headBytes < 4) break;
      headBytes = 0;
      const length = new DataView(head.buffer).getUint32(0, false);
      const problem = messageLengthProblem(length);
      if (problem !== undefined) {
        // The whole messages before it in this chunk still reach the decoder.
        if (messageStart > offset) yield chunk.subarray(0, messageStart - offset);
        throw Object.assign(new Error(`Event stream ${problem} at byte ${messageStart}`), {
          code: EVENT_STREAM_LENGTH_CODE,
          offset: messageStart,
        });
      }
      remaining = length - 4;
    }
    offset += chunk.byteLength;
    yield chunk;
  }
  if (headBytes > 0 || remaining > 0) {
    throw Object.assign(
      new Error(
        `Event stream ended inside a message (${offset - messageStart} bytes of it received; truncated)`,
      ),
      { code: EVENT_STREAM_CUT_CODE, offset: messageStart },
    );
  }
}
