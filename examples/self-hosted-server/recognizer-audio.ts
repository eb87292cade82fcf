import { createAudioConverter, encodeWav, readWav } from '../../src/audio/index.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { ApiError } from './api-error.js';

/** What pocketsphinx decodes (fixtures/README.md): 16 kHz mono PCM s16le. */
export const RECOGNIZER_FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}

function invalidAudio(detail: string): ApiError {
  return new ApiError(400, `The file must be a mono WAV (PCM s16le or f32le, mu-law or A-law): ${detail}`, {
    param: 'file',
    code: 'invalid_audio',
  });
}

/**
 * Converts an uploaded WAV file (any encoding and sample rate voxroute reads, mono) into a
 * complete 16 kHz mono s16le WAV file for pocketsphinx, with voxroute's WAV reader and audio
 * converter (decode, resample with the Speex resampler, encode). Throws ApiError 400 `invalid_audio`
 * for a file that is not such a WAV.
 */
export async function toRecognizerWav(file: Uint8Array): Promise<Uint8Array> {
  const stream = readWav(once(file));
  let converter: Awaited<ReturnType<typeof createAudioConverter>>;
  try {
    converter = await createAudioConverter(await stream.format, RECOGNIZER_FORMAT);
  } catch (error) {
    throw invalidAudio(error instanceof Error ? error.message : String(error));
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  const add = (part: Uint8Array) => {
    parts.push(part);
    total += part.byteLength;
  };
  try {
    for await (const samples of stream.data) add(converter.push(samples));
    add(converter.flush());
  } catch (error) {
    throw invalidAudio(error instanceof Error ? error.message : String(error));
  } finally {
    converter.close();
  }
  const pcm = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    pcm.set(part, offset);
    offset += part.byteLength;
  }
  return encodeWav(RECOGNIZER_FORMAT, pcm);
}
