/**
 * Kind: a SageMaker response stream whose FIRST event the AWS SDK cannot read. The SDK reads
 * it inside `send()` and wraps the failure as a "Deserialization error" (HTTP 200), which became
 * a non-retryable generic ProviderError carrying the SDK's hint about its hidden `$response`
 * field (which voxroute strips). The same events after a PayloadPart were mapped as documented
 * (docs/providers.md, SageMaker errors): an unmodeled `:message-type: error` is a retryable
 * ProviderError with `providerType` = its `:error-code`; a frame the SDK cannot decode (a header
 * with an unknown type tag, a message without `:message-type`) is a broken frame, a retryable
 * ProtocolError. The endpoint writes the event-stream bytes itself (node:http, CRC32 from
 * node:zlib), not through voxroute's mock.
 */
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  ProtocolError,
  ProviderError,
  type VoxrouteError,
} from '../../src/index.js';
import { eventMessage } from '../reliability/wire/event-stream.js';
import { answeringEventStream, responseStreamTts, ttsRouteOver } from './wire/sagemaker-response.js';
import { drain, router } from './wire/servers.js';

const HINT = /Deserialization error|\$response/;

/** One event-stream message whose header block is `head` as given (any bytes). */
function rawMessage(head: Buffer, payload: Buffer): Buffer {
  const total = 12 + head.length + payload.length + 4;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(head.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  head.copy(out, 12);
  payload.copy(out, 12 + head.length);
  out.writeUInt32BE(crc32(out.subarray(0, total - 4)), total - 4);
  return out;
}

/** A `:message-type` header whose type tag is 42 (no such type; 0-9 exist). */
function unknownTypeHeader(): Buffer {
  const name = Buffer.from(':message-type');
  return Buffer.concat([Buffer.from([name.length]), name, Buffer.from([42])]);
}

/** The error of A's one attempt when its first event is `body`. */
async function firstEventFailure(body: Buffer): Promise<{ call: AllProvidersFailedError; a: VoxrouteError }> {
  const wire = await answeringEventStream(body);
  const r = router(ttsRouteOver({ a: responseStreamTts(wire.url) }));
  const { items, error } = await drain(
    r.tts({ text: 'Hello there.', voice: 'agent', format: { encoding: 'pcm_s16le', sampleRate: 24_000 } }),
  );
  expect(items).toEqual([]);
  expect(AllProvidersFailedError.isInstance(error)).toBe(true);
  const call = error as AllProvidersFailedError;
  return { call, a: call.attempts[0]!.error as VoxrouteError };
}

describe('an unreadable first event on the SageMaker response stream', () => {
  it('an unmodeled :message-type error first: retryable ProviderError, providerType its :error-code, no SDK hint', async () => {
    const { call, a } = await firstEventFailure(
      eventMessage(
        { ':message-type': 'error', ':error-code': 'ServiceUnavailable', ':error-message': 'try later' },
        Buffer.alloc(0),
      ),
    );
    expect(ProviderError.isInstance(a)).toBe(true);
    expect(ProtocolError.isInstance(a)).toBe(false);
    expect(a.retryable).toBe(true);
    expect((a as ProviderError).providerType).toBe('ServiceUnavailable');
    expect((a as ProviderError).providerCode).toBe('ServiceUnavailable');
    expect(a.partialOutput).toBe(false);
    expect(a.message).toBe(
      "Provider 'a' stream failed before any output (ServiceUnavailable/ServiceUnavailable): try later",
    );
    expect(call.retryable).toBe(true);
    expect(call.message).not.toMatch(HINT);
  });

  it('a header with an unknown type tag first: retryable ProtocolError, no SDK hint', async () => {
    const { call, a } = await firstEventFailure(rawMessage(unknownTypeHeader(), Buffer.from('x')));
    expect(ProtocolError.isInstance(a)).toBe(true);
    expect(a.retryable).toBe(true);
    expect(a.partialOutput).toBe(false);
    expect(a.message).toBe(
      "Provider 'a' sent a malformed event-stream message: Unrecognized header type tag",
    );
    expect(call.retryable).toBe(true);
    expect(call.message).not.toMatch(HINT);
  });

  it('a message without :message-type first: retryable ProtocolError, no SDK hint', async () => {
    const { call, a } = await firstEventFailure(
      eventMessage({ ':event-type': 'PayloadPart' }, Buffer.from('x')),
    );
    expect(ProtocolError.isInstance(a)).toBe(true);
    expect(a.retryable).toBe(true);
    expect(a.partialOutput).toBe(false);
    expect(a.message).toMatch(/^Provider 'a' sent a malformed event-stream message: /);
    expect(a.message).not.toMatch(HINT);
    expect(call.retryable).toBe(true);
  });
});
