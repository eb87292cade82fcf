import { durationMs } from '../../audio/format.js';
import type { TranscriptEvent } from '../../types/transcript.js';
import { collectAudio } from '../shared/collect-audio.js';
import type { AttemptContext, ProviderSttRequest, SttProvider } from '../types.js';
import type { SageMakerSttCodec, SttCodecCall } from './codec.js';
import { runResponseStream, type SageMakerTarget } from './response-stream.js';
import type { SageMakerStreamClient } from './stream-client.js';
import { sageMakerSttCapabilities } from './stt-capabilities.js';

/**
 * Speech-to-text over `InvokeEndpointWithResponseStream` (PROTOCOLS.md 5.1): the caller's
 * audio is collected until it ends (one utterance: the request body must be complete before
 * it is sent), then `codec.encode` builds the body and `codec.decode` streams the transcripts
 * back. Capabilities: the codec's `inputFormats` at `sampleRate` (Hz), no streaming input.
 * Empty audio sends nothing and yields nothing. Throws AbortError when the attempt's signal
 * aborts while the audio is read, else what `runResponseStream` throws.
 */
export function createSageMakerStt(
  client: SageMakerStreamClient,
  target: SageMakerTarget,
  codec: SageMakerSttCodec,
  sampleRate: number,
): SttProvider {
  const capabilities = sageMakerSttCapabilities(codec, sampleRate, false);
  return {
    capabilities,
    async *transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncGenerator<TranscriptEvent> {
      const audio = await collectAudio(request.audio, attempt.signal);
      if (audio.byteLength === 0) return;
      const call: SttCodecCall = {
        provider: target.provider,
        request,
        sampleRate,
        audioMs: Math.round(durationMs(request.format, audio.byteLength)),
      };
      yield* runResponseStream(
        client,
        target,
        codec.encode(call, audio),
        attempt,
        (parts) => codec.decode(parts, call),
        () => true,
      );
    },
  };
}
