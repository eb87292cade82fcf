import { WavReader } from '../../audio/wav-reader.js';
import { isWavHeader, WAV_SNIFF_BYTES } from '../../audio/wav-sniff.js';
import { ProtocolError } from '../../errors/index.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';

/** What the answer's Content-Type said: a WAV file, or raw samples in `format`. */
export type SpeakBody = { wav: true } | { wav: false; format: AudioFormat };

/**
 * The audio of a `/v1/speak` body, yielded as it arrives. voxroute asks for raw samples
 * (`container=none`), labelled with `declared.format` (from the Content-Type and the request).
 * Because Deepgram's documented REST defaults disagree (container `wav` or `mp3`, PROTOCOLS.md
 * 3.3), a body that turns out to be a WAV file (`declared.wav`, or the bytes `RIFF....WAVE` at
 * the start) is read with the streaming WAV reader and labelled with its header's format
 * instead: bytes are never relabelled. Throws ProtocolError (`partialOutput` when audio was
 * yielded) for a malformed or truncated WAV body.
 */
export async function* speakBodyAudio(
  provider: string,
  body: AsyncIterable<Uint8Array>,
  declared: SpeakBody,
): AsyncGenerator<ProviderAudio> {
  // Raw bytes are only ever yielded when the type did not say WAV (mode starts 'undecided').
  const format = (declared.wav ? undefined : declared.format) as AudioFormat;
  let head = new Uint8Array(0);
  let mode: 'undecided' | 'raw' | 'wav' = declared.wav ? 'wav' : 'undecided';
  const reader = new WavReader();
  let wavFormat: AudioFormat | undefined;
  let hadOutput = false;
  const wavChunk = (bytes: Uint8Array): ProviderAudio | undefined => {
    try {
      const result = reader.push(bytes);
      wavFormat ??= result.format;
      return result.data.byteLength > 0 && wavFormat ? { data: result.data, format: wavFormat } : undefined;
    } catch (error) {
      throw rethrow(error, provider, hadOutput);
    }
  };
  for await (const bytes of body) {
    if (bytes.byteLength === 0) continue;
    let pending = bytes;
    if (mode === 'undecided') {
      const joined = new Uint8Array(head.byteLength + bytes.byteLength);
      joined.set(head, 0);
      joined.set(bytes, head.byteLength);
      if (joined.byteLength < WAV_SNIFF_BYTES) {
        head = joined;
        continue;
      }
      mode = isWavHeader(joined) ? 'wav' : 'raw';
      pending = joined;
      head = new Uint8Array(0);
    }
    if (mode === 'raw') {
      hadOutput = true;
      yield { data: pending, format };
    } else {
      const chunk = wavChunk(pending);
      if (chunk) {
        hadOutput = true;
        yield chunk;
      }
    }
  }
  if (mode === 'undecided') {
    // A body shorter than a WAV header: raw samples.
    if (head.byteLength > 0) yield { data: head, format };
    return;
  }
  if (mode === 'wav') {
    let truncatedBytes = 0;
    try {
      truncatedBytes = reader.end().truncatedBytes;
    } catch (error) {
      throw rethrow(error, provider, hadOutput);
    }
    if (truncatedBytes > 0) {
      throw new ProtocolError(`WAV body ended ${truncatedBytes} bytes short of its data chunk (truncated)`, {
        provider,
        partialOutput: hadOutput,
      });
    }
  }
}

function rethrow(error: unknown, provider: string, partialOutput: boolean): unknown {
  if (!ProtocolError.isInstance(error)) return error;
  return new ProtocolError(error.message, { provider, partialOutput, offset: error.offset, cause: error });
}
