import { EventStreamCodec } from '@smithy/eventstream-codec';
import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FrameReader } from '../../../src/testing/sagemaker/event-stream.js';

// The emulator's framing is its own code; @smithy/eventstream-codec (what the AWS SDK uses) is
// the independent reference it must agree with, byte for byte.
const reference = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("the SageMaker emulator's event-stream framing", () => {
  it('encodes string headers and a payload exactly as the reference codec does', () => {
    const headers = { ':message-type': 'event', ':event-type': 'PayloadPart', DataType: 'UTF8' };
    const mine = encodeFrame(headers, utf8('{"token":"hé"}'));
    const theirs = reference.encode({
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
      ),
      body: utf8('{"token":"hé"}'),
    });
    expect(Buffer.from(mine).toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
  });

  it('decodes timestamp, binary, string, integer and boolean headers the reference codec wrote', () => {
    const signature = Uint8Array.from({ length: 32 }, (_, i) => i);
    const bytes = reference.encode({
      headers: {
        ':date': { type: 'timestamp', value: new Date(1_700_000_000_123) },
        ':chunk-signature': { type: 'binary', value: signature },
        name: { type: 'string', value: 'value' },
        count: { type: 'integer', value: -7 },
        flag: { type: 'boolean', value: false },
      },
      body: utf8('payload'),
    });
    const frame = decodeFrame(bytes);
    expect(frame.headers).toEqual({
      ':date': { type: 'timestamp', value: 1_700_000_000_123 },
      ':chunk-signature': { type: 'binary', value: signature },
      name: { type: 'string', value: 'value' },
      count: { type: 'number', value: -7 },
      flag: { type: 'boolean', value: false },
    });
    expect(new TextDecoder().decode(frame.payload)).toBe('payload');
  });

  it('refuses a wrong message CRC32 and a wrong prelude CRC32', () => {
    const good = encodeFrame({ a: 'b' }, utf8('x'));
    const badMessage = good.slice();
    badMessage[badMessage.length - 1]! ^= 0xff;
    expect(() => decodeFrame(badMessage)).toThrow('message CRC32 mismatch');
    const badPrelude = good.slice();
    badPrelude[8]! ^= 0xff;
    expect(() => decodeFrame(badPrelude)).toThrow('prelude CRC32 mismatch');
  });

  it('reassembles messages cut at every byte', () => {
    const one = encodeFrame({ n: '1' }, utf8('first'));
    const two = encodeFrame({ n: '2' }, new Uint8Array(0));
    const stream = new Uint8Array([...one, ...two]);
    const reader = new FrameReader();
    const payloads: string[] = [];
    for (const byte of stream) {
      for (const frame of reader.push(Uint8Array.of(byte))) {
        payloads.push(
          `${(frame.headers.n as { value: string }).value}:${new TextDecoder().decode(frame.payload)}`,
        );
      }
    }
    expect(payloads).toEqual(['1:first', '2:']);
  });
});
