import { AudioConversionError } from '../errors/audio-conversion-error.js';
import type { AudioFormat } from '../types/audio.js';
import { type AudioConverter, createAudioConverter } from './audio-converter.js';
import { formatLabel } from './format.js';
import { loadSpeex } from './speex-wasm.js';

/**
 * `createAudioConverter(from, to)` for the stream of a routed call (tts, stt). A resampler that cannot be
 * started (its WebAssembly module not loaded, e.g. a bundle without its `.wasm` file, or a CommonJS
 * bundle whose loader fails with a TypeError; Speex refusing the rates) is a failure inside
 * voxroute, not the provider's: it becomes an AudioConversionError (the call ends, no fallback, no
 * provider charged, as when the resampler's worker thread fails), its cause the loader's error.
 * RangeError and TypeError of formats the converter refuses are thrown as they are.
 */
export async function streamAudioConverter(from: AudioFormat, to: AudioFormat): Promise<AudioConverter> {
  // The module is loaded first, so that its loader's error (whatever its class: a TypeError
  // from a bundle without `import.meta.url`) is never taken for a refused format.
  if (from.sampleRate !== to.sampleRate) {
    try {
      await loadSpeex();
    } catch (error) {
      throw notStarted(from, to, error);
    }
  }
  try {
    return await createAudioConverter(from, to);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw error;
    throw notStarted(from, to, error);
  }
}

function notStarted(from: AudioFormat, to: AudioFormat, error: unknown): AudioConversionError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AudioConversionError(
    `The resampler for ${formatLabel(from)} -> ${formatLabel(to)} could not be started: ${reason} (a bundled application must keep @echogarden/speex-resampler-wasm external or ship its wasm/ folder: docs/audio.md)`,
    { cause: error },
  );
}
