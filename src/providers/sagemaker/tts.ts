import type { AttemptContext, ProviderAudio, ProviderTtsRequest, TtsProvider } from '../types.js';
import { hasAudio, type SageMakerTtsCodec, ttsCapabilities } from './codec.js';
import { runResponseStream, type SageMakerTarget } from './response-stream.js';
import type { SageMakerStreamClient } from './stream-client.js';

/**
 * Text-to-speech over `InvokeEndpointWithResponseStream` (PROTOCOLS.md 5.1). Capabilities:
 * `outputFormats` from the codec at `sampleRate` (Hz), no streaming text, no word timestamps.
 * `synthesize()` yields the codec's audio as the PayloadParts arrive; throws what
 * `runResponseStream` throws.
 */
export function createSageMakerTts(
  client: SageMakerStreamClient,
  target: SageMakerTarget,
  codec: SageMakerTtsCodec,
  sampleRate: number,
): TtsProvider {
  return {
    capabilities: ttsCapabilities(codec, sampleRate),
    synthesize(request: ProviderTtsRequest, attempt: AttemptContext): AsyncIterable<ProviderAudio> {
      const call = { provider: target.provider, request, sampleRate };
      return runResponseStream(
        client,
        target,
        codec.encode(call),
        attempt,
        (parts) => codec.decode(parts, call),
        hasAudio,
      );
    },
  };
}
