import { assertEncoding } from '../audio/format.js';
import { encodeWav, transcode } from '../audio/index.js';
import { checkObject } from '../internal/arg-checks.js';
import type { AudioFormat } from '../types/audio.js';
import { s16leBytes, syntheticVoice, voiceSampler } from './synthetic-voice.js';

/**
 * Options of {@link syntheticAudio} and {@link syntheticWav}.
 *
 * @example
 * ```ts
 * const options: SyntheticAudioOptions = { durationMs: 500, format: { encoding: 'alaw', sampleRate: 8000 } };
 * ```
 */
export interface SyntheticAudioOptions {
  /** Length in ms; the sample count is `round(durationMs * format.sampleRate / 1000)`. */
  durationMs: number;
  /**
   * Encoding and sample rate (Hz) of the bytes to produce; mono only. Give `format`, or only
   * `sampleRate` (the shape of {@link syntheticVoice}) for PCM s16le at that rate.
   */
  format?: AudioFormat | undefined;
  /** Shorthand for `format: { encoding: 'pcm_s16le', sampleRate }`; must match `format.sampleRate` if both are given. */
  sampleRate?: number | undefined;
  /** Picks the voice, as in {@link syntheticVoice}. Default: 0. */
  seed?: number | undefined;
}

/**
 * The format of `options`: `format`, or PCM s16le at `sampleRate`; TypeError when neither is
 * given, RangeError naming `name` for an encoding voxroute does not make (untyped code: `'mp3'`,
 * or none at all), which the encoder would otherwise answer with `undefined` for bytes.
 */
function formatOf(options: SyntheticAudioOptions, name: string): AudioFormat {
  checkObject(
    `${name}(options): options`,
    'an object ({ durationMs, format or sampleRate, seed? })',
    options,
  );
  const { format, sampleRate } = options;
  if (format === undefined) {
    if (sampleRate === undefined) {
      throw new TypeError(
        `${name}: options.format is required (an AudioFormat such as { encoding: 'pcm_s16le', sampleRate: 16000 }), or give options.sampleRate for PCM s16le`,
      );
    }
    return { encoding: 'pcm_s16le', sampleRate };
  }
  if (typeof format !== 'object' || format === null) {
    throw new TypeError(`${name}: options.format must be an AudioFormat object, got ${typeof format}`);
  }
  if (sampleRate !== undefined && sampleRate !== format.sampleRate) {
    throw new TypeError(
      `${name}: options.sampleRate (${sampleRate}) differs from options.format.sampleRate (${format.sampleRate}); give one`,
    );
  }
  assertEncoding(name, format.encoding);
  return format;
}

/**
 * The {@link syntheticVoice} signal as raw bytes in `format`, generated at `format.sampleRate`
 * directly (no resampling), then encoded with voxroute's own codec (the codec of `createAudioConverter`),
 * so the bytes are exactly what the router's converter makes of the same s16 samples:
 * - `pcm_s16le`: the samples, 2 bytes each, little-endian;
 * - `pcm_f32le`: each sample s as the float32 s / 32768, little-endian (f32 -> s16 gives the
 *   s16 samples back exactly);
 * - `mulaw`, `alaw`: ITU-T G.711 codes of the s16 samples (8-bit, one a sample).
 *
 * Deterministic: same options, same bytes. Throws RangeError as {@link syntheticVoice} does,
 * for more than one channel, and naming `format.encoding` when it is not one of the four;
 * TypeError naming `options` when it is not an object, naming `format` when neither `format`
 * nor `sampleRate` is given, or when they disagree.
 *
 * @example
 * ```ts
 * const ulaw = syntheticAudio({ durationMs: 200, format: { encoding: 'mulaw', sampleRate: 8000 } });
 * // ulaw.byteLength === 1600
 * ```
 */
export function syntheticAudio(options: SyntheticAudioOptions): Uint8Array {
  return syntheticAudioFor('syntheticAudio', options);
}

/** {@link syntheticAudio}, its errors naming `name` (the kit's helper the caller called). Internal to the kit. */
export function syntheticAudioFor(name: string, options: SyntheticAudioOptions): Uint8Array {
  return audioIn(formatOf(options, name), options);
}

function audioIn(format: AudioFormat, options: SyntheticAudioOptions): Uint8Array {
  if ((format.channels ?? 1) !== 1) throw new RangeError('syntheticAudio makes mono audio only');
  const samples = syntheticVoice({
    durationMs: options.durationMs,
    sampleRate: format.sampleRate,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  return transcode(s16leBytes(samples), 'pcm_s16le', format.encoding);
}

/**
 * {@link syntheticAudio} generated piece by piece: each `next(count)` gives the bytes in
 * `format` of the `count` samples after those given so far, so the pieces join to the bytes of
 * one longer `syntheticAudio` (the encodings are sample by sample). Internal to the kit: for
 * mocks that add audio as text arrives. Throws RangeError for more than one channel or a
 * non-positive sample rate.
 */
export function syntheticAudioSampler(
  format: AudioFormat,
  seed = 0,
): { readonly generated: number; next(count: number): Uint8Array } {
  if ((format.channels ?? 1) !== 1) throw new RangeError('syntheticAudio makes mono audio only');
  if (!(format.sampleRate > 0)) throw new RangeError(`sampleRate must be > 0 Hz, got ${format.sampleRate}`);
  const voice = voiceSampler(format.sampleRate, seed);
  return {
    get generated() {
      return voice.generated;
    },
    next: (count) => transcode(s16leBytes(voice.next(count)), 'pcm_s16le', format.encoding),
  };
}

/**
 * A whole WAV file (44-byte canonical header with exact sizes, then the data) holding
 * {@link syntheticAudio} in `format` (or PCM s16le at `sampleRate`). Throws as
 * {@link syntheticAudio} does, naming `syntheticWav`.
 *
 * @example
 * ```ts
 * const file = syntheticWav({ durationMs: 1000, format: { encoding: 'pcm_s16le', sampleRate: 16000 } });
 * // file.byteLength === 44 + 32000
 * const same = syntheticWav({ durationMs: 1000, sampleRate: 16000 }); // the same bytes
 * ```
 */
export function syntheticWav(options: SyntheticAudioOptions): Uint8Array {
  const format = formatOf(options, 'syntheticWav');
  return encodeWav(format, audioIn(format, options));
}
