import { createAudioConverter, readWav } from '../../src/audio/index.js';
import type { AudioFormat } from '../../src/types/audio.js';

/** OpenAI's `pcm` response format: 24 kHz s16le mono without a header (PROTOCOLS.md 2.3). */
export const OPENAI_PCM_FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 };

/**
 * Turns a WAV byte stream (espeak-ng's `--stdout`, 22050 Hz s16le mono with placeholder sizes)
 * into OpenAI `pcm` as it arrives: the header is stripped by voxroute's streaming WAV reader and
 * the audio resampled to 24 kHz by its audio converter (Speex resampler, `sinc-fastest`), whole
 * samples only. Yields nothing empty. Throws ProtocolError when the stream is not a WAV or ends
 * inside its header, RangeError for a WAV that is not mono.
 */
export async function* wavToOpenAIPcm(
  wav: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  const stream = readWav(wav);
  const converter = await createAudioConverter(await stream.format, OPENAI_PCM_FORMAT);
  try {
    for await (const samples of stream.data) {
      const out = converter.push(samples);
      if (out.byteLength > 0) yield out;
    }
    const tail = converter.flush();
    if (tail.byteLength > 0) yield tail;
  } finally {
    converter.close();
  }
}
