import { AudioConversionError } from '../errors/audio-conversion-error.js';
import type { AudioFormat } from '../types/audio.js';
import { type AudioConverter, createAudioConverter } from './audio-converter.js';
import { formatLabel } from './format.js';

/**
 * `createAudioConverter(from, to)` for the stream of a routed call (tts, stt). A resampler that cannot be
 * started (its WebAssembly module not loaded, e.g. a bundle without its `.wasm` file; Speex
 * refusing the rates) is a failure inside voxroute, not the provider's: it becomes an
 * AudioConversionError (the call ends, no fallback, no provider charged, as when the resampler's
 * worker thread fails), its cause the loader's error. RangeError and TypeError (formats the
 * converter refuses) are thrown as they are.
 */
export async function streamAudioConverter(from: AudioFormat, to: AudioFormat): Promise<AudioConverter> {
  try {
    return await createAudioConverter(from, to);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AudioConversionError(
      `The resampler for ${formatLabel(from)} -> ${formatLabel(to)} could not be started: ${reason} (a bundled application must keep @echogarden/speex-resampler-wasm external or ship its wasm/ folder: docs/audio.md)`,
      { cause: error },
    );
  }
}
