/**
 * Kind 4 (silent truncation) and its sibling, event-stream framing across DATA frames, on the
 * SageMaker bidirectional stream. HTTP/2 DATA frames need not follow message boundaries: a
 * frame can carry several messages or part of one (any message over 16 KiB spans frames). Found
 * by the event-stream property test: the adapter decoded each DATA frame as exactly one message,
 * so coalesced or split messages failed as "malformed", and a body that ended inside a message
 * ended the call as if complete. Servers speak the wire on their own (h2c, framing in test code).
 */
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  MidStreamError,
  ProtocolError,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { sageMakerTts } from '../cases/wire/sagemaker-response.js';
import { concat, drain, pcmSignal, router } from '../cases/wire/servers.js';
import { payloadPart } from './wire/event-stream.js';
import { h2cEndpoint } from './wire/h2c-endpoint.js';

const AUDIO = pcmSignal(24_000, 24_000, 3); // 1 s, 48,000 bytes

/**
 * An h2c bidirectional endpoint that, on the first input frame, writes `body` in writes of the
 * given sizes (the last size repeats), each its own DATA frame, then ends the stream cleanly.
 */
function endpoint(body: Buffer, sizes: number[]): Promise<string> {
  return h2cEndpoint((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
    stream.once('data', () => {
      let at = 0;
      for (let i = 0; at < body.length; i++) {
        const size = sizes[Math.min(i, sizes.length - 1)]!;
        stream.write(body.subarray(at, at + size));
        at += size;
      }
      stream.end();
    });
  });
}

const config = (url: string) =>
  ({
    providers: {
      sm: sageMakerTts(url, 'bidirectional'),
    },
    routes: { tts: { providers: ['sm'] } },
  }) as RouterConfig;

/** Four payload parts of 12,000 bytes each, as one body. */
const parts = concat([0, 1, 2, 3].map((i) => payloadPart(AUDIO.subarray(i * 12_000, (i + 1) * 12_000))));

describe('SageMaker bidirectional: event-stream messages across DATA frames', () => {
  it('regression (property counterexample): all four messages in one DATA frame give the whole audio', async () => {
    const r = router(config(await endpoint(parts, [parts.length])));
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
  });

  it('regression (property counterexample): messages split at odd points (7, 5000, 1 ... bytes) give the whole audio', async () => {
    const r = router(config(await endpoint(parts, [7, 5000, 1, 3, 20_000, 999])));
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
  });

  it('a body that ends cleanly inside a message is a truncation ProtocolError, never a complete call', async () => {
    const cut = parts.subarray(0, parts.length - 10);
    const r = router(config(await endpoint(cut, [5000])));
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    // Three whole parts were delivered; the fourth was cut 10 bytes short of its end.
    expect(concat(items.map((c) => c.data)).equals(AUDIO.subarray(0, 36_000))).toBe(true);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.message).toBe('Event stream ended inside a message (12095 bytes of it received; truncated)');
    expect([cause.retryable, cause.partialOutput]).toEqual([true, true]);
  });

  it('cut inside the first message: nothing delivered, AllProvidersFailedError with the ProtocolError', async () => {
    const r = router(config(await endpoint(parts.subarray(0, 100), [100])));
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const cause = (error as AllProvidersFailedError).attempts[0]!.error as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.message).toBe('Event stream ended inside a message (100 bytes of it received; truncated)');
  });
});
