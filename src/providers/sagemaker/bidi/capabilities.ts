import { lazyImport } from '../../../internal/lazy.js';
import type { TranscriptEvent } from '../../../types/transcript.js';
import type {
  AttemptContext,
  ProviderAudio,
  ProviderSttRequest,
  ProviderTtsRequest,
  SttProvider,
  TtsProvider,
} from '../../types.js';
import {
  hasAudio,
  type SageMakerInputPart,
  type SageMakerInvocation,
  type SageMakerSttCodec,
  type SageMakerTtsCodec,
  type SttCodecCall,
  ttsCapabilities,
} from '../codec.js';
import { sageMakerSttCapabilities } from '../stt-capabilities.js';
import { type BidiTarget, loadHttp2, runBidiStream } from './http2-stream.js';

const encoder = new TextEncoder();

/** The `encode()` body of a codec as the one `COMPLETE` input part (`UTF8` for text, else `BINARY`). */
async function* wholeBody(invocation: SageMakerInvocation): AsyncGenerator<SageMakerInputPart> {
  const text = typeof invocation.body === 'string';
  yield {
    bytes: text ? encoder.encode(invocation.body as string) : (invocation.body as Uint8Array),
    dataType: text ? 'UTF8' : 'BINARY',
    completionState: 'COMPLETE',
  };
}

/**
 * Text-to-speech over a bidirectional stream (PROTOCOLS.md 5.5): the codec's `input()` parts (or
 * its `encode()` body as one `COMPLETE` part) go in, its `decode()` reads the audio coming back.
 * Capabilities as for response streams: the codec's `outputFormats` at `sampleRate` Hz.
 */
export function createSageMakerBidiTts(
  target: BidiTarget,
  codec: SageMakerTtsCodec,
  sampleRate: number,
): TtsProvider {
  return {
    capabilities: ttsCapabilities(codec, sampleRate),
    synthesize(request: ProviderTtsRequest, attempt: AttemptContext): AsyncIterable<ProviderAudio> {
      const call = { provider: target.provider, request, sampleRate };
      const input = codec.input ? codec.input(call) : wholeBody(codec.encode(call));
      return lazyBidiStream(target, input, attempt, (parts) => codec.decode(parts, call), hasAudio);
    },
  };
}

/**
 * Speech-to-text over a bidirectional stream (PROTOCOLS.md 5.5): the caller's audio is sent as
 * it arrives (`input`, the codec's `input()` bound to it), and transcripts stream back while it still flows
 * (`streamingInput: true`). Finals carry no `endMs` unless the container sends times (the
 * audio's length is unknown while it streams).
 */
export function createSageMakerBidiStt(
  target: BidiTarget,
  codec: SageMakerSttCodec,
  input: NonNullable<SageMakerSttCodec['input']>,
  sampleRate: number,
): SttProvider {
  const capabilities = sageMakerSttCapabilities(codec, sampleRate, true);
  return {
    capabilities,
    transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncIterable<TranscriptEvent> {
      const call: SttCodecCall = { provider: target.provider, request, sampleRate, audioMs: 0 };
      return lazyBidiStream(
        target,
        input(call),
        attempt,
        (parts) => codec.decode(parts, call),
        () => true,
      );
    },
  };
}

/**
 * Loads node:http2 for bidirectional streams on the first call (or preload), not with the
 * adapters' code (the HTTP/2 client itself comes with it: a file of its own would cost the
 * package's import more than its size, see routing/deferred-code.ts).
 */
export const loadBidiStream: () => Promise<void> = lazyImport(async () => loadHttp2());

/** runBidiStream, with node:http2 loaded on first use (not at import, nor with the adapters). */
async function* lazyBidiStream<T>(
  ...args: Parameters<typeof runBidiStream<T>>
): AsyncGenerator<T, void, undefined> {
  await loadBidiStream();
  yield* runBidiStream(...args);
}
