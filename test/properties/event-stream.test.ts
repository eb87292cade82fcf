/**
 * Property tests of the AWS event-stream decoding used for SageMaker bidirectional streams
 * (`EventStreamReader` over the smithy codec, PROTOCOLS.md 5.2): messages arrive whole and in
 * order whatever the chunk boundaries; any corruption or cut is a typed ProtocolError (at the
 * message, or at the end of the body), never another throw, a hang or a silently short result.
 *
 * Found by this test (kept as named regressions in test/reliability/
 * kind4-event-stream-reassembly.test.ts): the adapter decoded each HTTP/2 DATA frame as exactly
 * one message, so coalesced or split messages failed, and a body cut inside a message ended
 * as if complete.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import {
  createEventStreamCodec,
  type Message,
  stringHeader,
} from '../../src/providers/sagemaker/event-stream.js';
import { EventStreamReader } from '../../src/providers/sagemaker/event-stream-reader.js';
import { cutsArb, RUNS, splitAt } from './chunks.js';

const codec = await createEventStreamCodec();

const messageArb: fc.Arbitrary<Message> = fc
  .record({
    type: fc.constantFrom('event', 'exception', 'error'),
    name: fc.constantFrom('PayloadPart', 'ModelStreamError', 'InternalStreamFailure'),
    extra: fc.option(fc.string({ unit: 'grapheme', maxLength: 20 }), { nil: undefined }),
    body: fc.uint8Array({ maxLength: 300 }),
  })
  .map(({ type, name, extra, body }) => ({
    headers: {
      ':message-type': stringHeader(type),
      ':event-type': stringHeader(name),
      ...(extra === undefined ? {} : { CompletionState: stringHeader(extra) }),
    },
    body,
  }));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Everything the reader makes of `chunks`: the messages, then the error of a push or of end(). */
function readAll(chunks: readonly Uint8Array[]): { messages: Message[]; error?: unknown } {
  const reader = new EventStreamReader(codec, 'sm');
  const messages: Message[] = [];
  try {
    for (const chunk of chunks) messages.push(...reader.push(chunk));
    reader.end();
    return { messages };
  } catch (error) {
    return { messages, error };
  }
}

const plain = (m: Message) => ({ headers: m.headers, body: Array.from(m.body) });

describe('event-stream decoding (property)', () => {
  it('encoded messages, cut anywhere (coalesced or split): the same messages in order, nothing left over', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 8 }), cutsArb, (messages, cuts) => {
        const body = concat(messages.map((m) => codec.encode(m)));
        const got = readAll(splitAt(body, cuts));
        expect(got.error).toBeUndefined();
        expect(got.messages.map(plain)).toEqual(messages.map(plain));
      }),
      RUNS,
    );
  });

  it('a body cut inside a message: the whole messages before it, then a truncation ProtocolError', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        cutsArb,
        (messages, at, cuts) => {
          const encoded = messages.map((m) => codec.encode(m));
          const body = concat(encoded);
          const end = 1 + (at % (body.byteLength - 1)); // 1 .. length-1: never a whole body
          const whole: Message[] = [];
          let size = 0;
          for (const [i, e] of encoded.entries()) {
            if (size + e.byteLength > end) break;
            size += e.byteLength;
            whole.push(messages[i]!);
          }
          const got = readAll(splitAt(body.subarray(0, end), cuts));
          expect(got.messages.map(plain)).toEqual(whole.map(plain));
          if (size === end) {
            expect(got.error).toBeUndefined(); // cut exactly between messages: a clean end here
          } else {
            expect(ProtocolError.isInstance(got.error)).toBe(true);
            expect((got.error as ProtocolError).offset).toBe(size);
          }
        },
      ),
      RUNS,
    );
  });

  it('one corrupted byte anywhere: a ProtocolError, never a message that differs from what was sent', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        cutsArb,
        (messages, at, flip, cuts) => {
          const body = concat(messages.map((m) => codec.encode(m)));
          const i = at % body.byteLength;
          body[i] = body[i]! ^ flip;
          const got = readAll(splitAt(body, cuts));
          expect(ProtocolError.isInstance(got.error)).toBe(true);
          // Messages before the corrupted one come through unchanged.
          const sent = messages.map(plain);
          expect(got.messages.map(plain)).toEqual(sent.slice(0, got.messages.length));
          expect(got.messages.length).toBeLessThan(messages.length);
        },
      ),
      RUNS,
    );
  });

  it('any bytes, cut anywhere: messages or a ProtocolError, and the same outcome as in one chunk', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), cutsArb, (bytes, cuts) => {
        const whole = readAll([bytes]);
        const split = readAll(splitAt(bytes, cuts));
        for (const o of [whole, split])
          if (o.error !== undefined) expect(ProtocolError.isInstance(o.error)).toBe(true);
        expect(split.messages.map(plain)).toEqual(whole.messages.map(plain));
        expect((split.error as Error | undefined)?.message).toBe((whole.error as Error | undefined)?.message);
      }),
      RUNS,
    );
  });
});
