import { sameFormat } from '../audio/format.js';
import { type AudioConverter, createAudioConverter, SampleFramer } from '../audio/index.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ProviderAudio, WordTiming } from '../providers/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';

/** Called when a provider's stream ended with bytes that do not make a whole sample. */
export type DroppedBytesListener = (droppedBytes: number, format: AudioFormat) => void;

/**
 * Turns a provider's raw audio into chunks of whole samples in the caller's format `want`:
 * re-frames split samples, and converts encoding and sample rate when the provider's
 * real format (as each chunk states it; bytes are never relabelled) differs. A format
 * change mid-stream flushes the old converter first. Word timestamps the provider sends are
 * pushed to `words` when given. Throws ProtocolError when the provider ended without a
 * single byte of audio.
 */
export async function* toCallerAudio(
  source: AsyncIterable<ProviderAudio>,
  want: AudioFormat,
  provider: string,
  onDropped?: DroppedBytesListener,
  words?: WordTiming[],
): AsyncGenerator<AudioChunk, void, undefined> {
  let framer: SampleFramer | undefined;
  let converter: AudioConverter | undefined;
  let current: AudioFormat | undefined;
  let produced = false;
  const endSegment = function* (): Generator<AudioChunk> {
    if (framer && current) {
      const { droppedBytes } = framer.end();
      if (droppedBytes > 0) onDropped?.(droppedBytes, current);
    }
    if (converter) {
      const tail = converter.flush();
      converter.close();
      if (tail.byteLength > 0) yield { data: tail, format: want };
    }
  };
  try {
    for await (const chunk of source) {
      if (words && chunk.words) words.push(...chunk.words);
      if (chunk.data.byteLength === 0) continue;
      if (!current || !sameFormat(current, chunk.format)) {
        yield* endSegment();
        current = chunk.format;
        framer = new SampleFramer(current);
        // Formats that match need no converter: the whole samples go out as they are.
        converter = sameFormat(current, want) ? undefined : await createAudioConverter(current, want);
      }
      produced = true;
      const whole = framer!.push(chunk.data);
      if (whole.byteLength === 0) continue;
      const out = converter ? converter.push(whole) : whole;
      if (out.byteLength > 0) yield { data: out, format: want };
    }
    yield* endSegment();
    converter = undefined;
    if (!produced) throw new ProtocolError(`Provider '${provider}' returned no audio`, { provider });
  } finally {
    converter?.close();
  }
}

/**
 * The format to ask a provider for: the caller's own when the provider makes it natively
 * (no conversion), else one at the caller's sample rate, else the provider's first choice.
 */
export function pickNativeFormat(offered: readonly AudioFormat[], want: AudioFormat): AudioFormat {
  return (
    offered.find((f) => sameFormat(f, want)) ??
    offered.find((f) => f.sampleRate === want.sampleRate) ??
    offered[0] ??
    want
  );
}
