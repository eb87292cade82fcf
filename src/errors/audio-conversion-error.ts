import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * Converting a provider's audio to the caller's format (or, for stt, the caller's audio to the
 * provider's) failed inside voxroute: the resampler could not be started (its WebAssembly module
 * not found, e.g. in a bundle without its `.wasm` file), its worker thread failed or exited, or
 * Speex refused a stream there. Code
 * `AUDIO_CONVERSION_FAILED`. Not the provider's fault: the call ends with it (no fallback) and
 * no provider's health is charged. Not retryable.
 */
export class AudioConversionError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_AudioConversionError`): `constructor.name`
  // reads 'AudioConversionError' in the built package too.
  static {
    Object.defineProperty(AudioConversionError, 'name', { value: 'AudioConversionError' });
  }

  override readonly code = 'AUDIO_CONVERSION_FAILED';

  /** `options.cause`: the resampler's own error, kept as the standard `cause`. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'AudioConversionError';
  }

  static override isInstance(error: unknown): error is AudioConversionError {
    return hasCode(error, 'AUDIO_CONVERSION_FAILED');
  }
}
