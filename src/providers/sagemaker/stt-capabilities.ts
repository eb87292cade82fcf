import type { SttCapabilities } from '../types.js';
import type { SageMakerSttCodec } from './codec.js';

/**
 * The STT capabilities of a SageMaker endpoint: the codec's `inputFormats` at `sampleRate` (Hz);
 * streaming input only over a bidirectional stream (transcripts while the audio still flows),
 * not over a response stream (the request body is the whole utterance). Known without loading
 * the adapter's code: the router reads them when it plans a call.
 */
export function sageMakerSttCapabilities(
  codec: SageMakerSttCodec,
  sampleRate: number,
  bidirectional: boolean,
): SttCapabilities {
  return { inputFormats: codec.inputFormats(sampleRate), streamingInput: bidirectional };
}
