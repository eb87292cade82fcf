import { WavReader } from '../../audio/wav-reader.js';
import { ProtocolError } from '../../errors/index.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';

/**
 * The audio of a streamed WAV body (e.g. `response_format: 'wav'` from Kokoro-FastAPI or
 * OpenAI), yielded as it arrives and labelled with the format of the WAV header: encoding
 * and sample rate are never assumed. Chunks are not framed (the router re-frames).
 * A `data` size that is a streaming placeholder (0xFFFFFFFF, 0) runs to the end of the body;
 * an exact size stops the audio there, and the chunks after it are skipped. WAV files back to
 * back (a next `RIFF....WAVE` header after an exact-size chunk, or inside a placeholder-size
 * one) are read as one stream of the first file's format (see `WavReader`); a next file of
 * another format is a ProtocolError.
 * Throws ProtocolError (with `provider`, `partialOutput` when audio was yielded, and the
 * reader's byte offset) for a malformed header, a body that ends inside the header, or an
 * exact-size `data` chunk that the body ends before completing (truncated).
 */
export async function* wavBodyAudio(
  provider: string,
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<ProviderAudio> {
  const reader = new WavReader();
  let format: AudioFormat | undefined;
  let hadOutput = false;
  const fail = (error: unknown): never => {
    if (!ProtocolError.isInstance(error)) throw error;
    throw new ProtocolError(error.message, {
      provider,
      partialOutput: hadOutput,
      offset: error.offset,
      cause: error,
    });
  };
  for await (const bytes of body) {
    let data: Uint8Array;
    try {
      const result = reader.push(bytes);
      data = result.data;
      format ??= result.format;
    } catch (error) {
      fail(error);
      return;
    }
    if (data.byteLength > 0 && format) {
      hadOutput = true;
      yield { data, format };
    }
  }
  let truncatedBytes = 0;
  let rest: Uint8Array | undefined;
  try {
    ({ truncatedBytes, rest } = reader.end());
  } catch (error) {
    fail(error);
  }
  if (rest && format) {
    hadOutput = true;
    yield { data: rest, format };
  }
  if (truncatedBytes > 0) {
    throw new ProtocolError(`WAV body ended ${truncatedBytes} bytes short of its data chunk (truncated)`, {
      provider,
      partialOutput: hadOutput,
    });
  }
}
