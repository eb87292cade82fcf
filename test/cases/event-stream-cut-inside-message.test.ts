/**
 * A SageMaker response stream (InvokeEndpointWithResponseStream, HTTP/1.1) whose body ends
 * cleanly inside an event-stream message. The AWS SDK reports "Truncated event message
 * received", which was passed on as a ProviderError with `retryable: false`, so the caller's
 * AllProvidersFailedError said the failure was not worth retrying. docs/providers.md: "a message
 * with a bad CRC; a cut connection → ProtocolError (retryable; truncated)". A body cut inside a
 * message is a truncation: a retryable ProtocolError (`partialOutput` when audio was yielded),
 * as the bidirectional path reports it. The servers speak HTTP and the event-stream framing on
 * their own (frames from test code).
 */
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  type MidStreamError,
  ProtocolError,
  type VoxrouteError,
} from '../../src/index.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import {
  answeringEventStream as answering,
  ttsRouteOver as config,
  fallbackFromA,
  protocolErrorAfter,
  speakOver,
  responseStreamTts as tts,
} from './wire/sagemaker-response.js';
import { pcmSignal } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 1); // 100 ms at 24 kHz, 4800 bytes
const FIRST = AUDIO.subarray(0, 2400);
const CUT = "Provider 'a' ended its event stream inside a message (truncated)";

describe('SageMaker response stream: a body that ends inside an event-stream message', () => {
  it('cut after 30 bytes of the first message: A fails with a retryable ProtocolError and B serves', async () => {
    const a = await answering(payloadPart(AUDIO).subarray(0, 30));
    const b = await answering(payloadPart(AUDIO));
    const aError = await fallbackFromA(config({ a: tts(a.url), b: tts(b.url) }), AUDIO);
    expect(ProtocolError.isInstance(aError)).toBe(true);
    expect(aError.message).toBe(CUT);
    expect((aError as ProtocolError).offset).toBe(0);
    expect(aError.retryable).toBe(true);
    expect(aError.partialOutput).toBe(false);
    expect(aError.provider).toBe('a');
  });

  it('cut inside the length field, alone: AllProvidersFailedError, retryable', async () => {
    const a = await answering(payloadPart(AUDIO).subarray(0, 3));
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expect((error as AllProvidersFailedError).retryable).toBe(true);
    const attempt = (error as AllProvidersFailedError).attempts[0]!.error as VoxrouteError;
    expect(ProtocolError.isInstance(attempt)).toBe(true);
    expect(attempt.message).toBe(CUT);
    expect(attempt.retryable).toBe(true);
  });

  it('cut inside the second message after a good part: MidStreamError of a retryable ProtocolError (partialOutput)', async () => {
    const second = payloadPart(AUDIO.subarray(2400));
    const a = await answering(Buffer.concat([payloadPart(FIRST), second.subarray(0, second.length - 1)]));
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    const cause = protocolErrorAfter(FIRST, items, error);
    expect((error as MidStreamError).retryable).toBe(true);
    expect(cause.message).toBe(CUT);
  });

  it('a good part, then 2 bytes of a next length field: MidStreamError of a retryable ProtocolError (the SDK took it for a clean end)', async () => {
    const next = payloadPart(AUDIO.subarray(2400));
    const a = await answering(Buffer.concat([payloadPart(FIRST), next.subarray(0, 2)]));
    const { items, error } = await speakOver(config({ a: tts(a.url) }));
    const cause = protocolErrorAfter(FIRST, items, error);
    expect(cause.message).toBe(CUT);
    expect(cause.offset).toBe(payloadPart(FIRST).length);
  });
});
