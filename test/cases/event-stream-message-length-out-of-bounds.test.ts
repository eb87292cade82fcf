/**
 * A SageMaker response stream (InvokeEndpointWithResponseStream, HTTP/1.1) whose event-stream
 * prelude announces a message of about 2 GiB. The AWS SDK's decoder allocated a buffer of the
 * announced length and filled it with whatever followed, until a deadline (the router's RSS grew
 * by hundreds of MB), and the error was a TimeoutError. The bidirectional path already refused
 * any length outside 16 bytes to 24 MiB at once; the response stream now does too: a retryable
 * ProtocolError naming the length, raised on the chunk that holds it, and the body is no longer
 * read. The servers speak HTTP and the event-stream framing on their own (frames from test code).
 */
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  ProtocolError,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import {
  answeringEventStream,
  fallbackFromA,
  protocolErrorAfter,
  speakOver,
  responseStreamTts as tts,
  ttsRouteOver,
} from './wire/sagemaker-response.js';
import { closed, concat, httpServer, pcmSignal } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 1); // 100 ms at 24 kHz, 4800 bytes
const FIRST = AUDIO.subarray(0, 2400);
const MAX = 24 * 1024 * 1024;

/** A prelude (total length, headers length 0, a valid prelude CRC) announcing `total` bytes. */
function prelude(total: number): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(0, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  return out;
}

/**
 * An endpoint that answers 200 with `before` (whole messages), then the writes of `bad` (a
 * prelude), then 1 MiB of filler, and never ends the body: only the client can end the call.
 */
async function hugeMessage(before: Buffer, bad: Buffer[]) {
  return httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      if (before.length > 0) res.write(before);
      for (const piece of bad) res.write(piece);
      res.write(Buffer.alloc(1 << 20, 0x61));
    });
  });
}

/** An endpoint answering 200 with one PayloadPart of AUDIO. */
const goodTts = () => answeringEventStream(payloadPart(AUDIO));

/** No first-chunk deadline: without the length check, a first message would never end the call. */
const config = (providers: RouterConfig['providers']) =>
  ttsRouteOver(providers, { firstChunkTimeoutMs: false });

describe('SageMaker response stream: a message length out of bounds', () => {
  it('a first prelude announcing 0x7ffffff0 bytes: A fails with a retryable ProtocolError at once, its connection closed, and B serves', async () => {
    const a = await hugeMessage(Buffer.alloc(0), [prelude(0x7ffffff0)]);
    const b = await goodTts();
    const aError = (await fallbackFromA(config({ a: tts(a.url), b: tts(b.url) }), AUDIO)) as ProtocolError;
    expect(ProtocolError.isInstance(aError)).toBe(true);
    expect(aError.retryable).toBe(true);
    expect(aError.partialOutput).toBe(false);
    expect(aError.provider).toBe('a');
    expect(aError.offset).toBe(0);
    expect(aError.message).toBe(
      `Provider 'a' sent a malformed event-stream message: Event stream announces a message of ${0x7ffffff0} bytes (must be 16 to ${MAX}) at byte 0`,
    );
    // The body was not read on: A's connection is closed by the client.
    expect(a.sockets).toHaveLength(1);
    await closed(a.sockets[0]!);
  });

  it('a prelude announcing 8 bytes (under the 16-byte minimum), alone: AllProvidersFailedError, retryable', async () => {
    const a = await hugeMessage(Buffer.alloc(0), [prelude(8)]);
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expect((error as AllProvidersFailedError).retryable).toBe(true);
    const attempt = (error as AllProvidersFailedError).attempts[0]!.error as VoxrouteError;
    expect(ProtocolError.isInstance(attempt)).toBe(true);
    expect(attempt.message).toBe(
      `Provider 'a' sent a malformed event-stream message: Event stream announces a message of 8 bytes (must be 16 to ${MAX}) at byte 0`,
    );
  });

  it('after a good PayloadPart, a length field split across two writes announcing 24 MiB + 1: MidStreamError of a retryable ProtocolError (partialOutput) at the second message', async () => {
    const good = payloadPart(FIRST);
    const bad = prelude(MAX + 1);
    const a = await hugeMessage(good, [bad.subarray(0, 2), bad.subarray(2)]);
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    const cause = protocolErrorAfter(FIRST, items, error);
    expect(cause.offset).toBe(good.length);
    expect(cause.message).toBe(
      `Provider 'a' sent a malformed event-stream message: Event stream announces a message of ${MAX + 1} bytes (must be 16 to ${MAX}) at byte ${good.length}`,
    );
  });

  it('control: a message of exactly 24 MiB is accepted whole', async () => {
    const pattern = Buffer.from(Array.from({ length: 251 }, (_, i) => i));
    const payload = Buffer.alloc(MAX - payloadPart(Buffer.alloc(0)).length, pattern);
    const message = payloadPart(payload);
    expect(message.length).toBe(MAX);
    const a = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        res.end(message);
      });
    });
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    expect(error).toBeUndefined();
    // Whole samples only (the router re-frames PCM; an odd last byte is no sample).
    expect(concat(items.map((c) => c.data)).equals(payload.subarray(0, payload.length & ~1))).toBe(true);
  });
});
