import { argTypeError, checkObject, isUint8Array } from '../internal/arg-checks.js';
import type { AudioFormat } from '../types/audio.js';
import { AUDIO_ENCODINGS, formatLabel, sameFormat } from './format.js';
import { encodeFromFloat32, transcode } from './pcm-codec.js';
import { Resampler, type ResamplerQuality, SPEEX_QUALITY } from './resampler.js';

/**
 * A streaming converter from one {@link AudioFormat} to another (encoding and sample rate).
 * Keep one per stream: resampling state carries across {@link push} calls.
 */
export interface AudioConverter {
  /** Format of the bytes pushed in. */
  readonly from: AudioFormat;
  /** Format of the bytes returned. */
  readonly to: AudioFormat;
  /**
   * Converts the next whole samples of `from` (frame them with SampleFramer upstream) and
   * returns whole samples of `to`: possibly empty (a resampler holds a few ms back). With
   * equal formats, returns `data` itself.
   * @throws RangeError when `data` is not a whole number of samples of `from`; TypeError when it
   *   is not a Uint8Array (a Buffer is one); Error after close().
   */
  push(data: Uint8Array): Uint8Array;
  /**
   * Ends the stream: returns the held-back tail, so that N input samples give exactly
   * round(N x to.sampleRate / from.sampleRate) output samples in total. The converter may then
   * serve a new stream.
   */
  flush(): Uint8Array;
  /** Releases the resampler's state. Idempotent. */
  close(): void;
}

/** Options of {@link createAudioConverter}. */
export interface AudioConverterOptions {
  /** Resampler quality when the rates differ. Default: `'sinc-fastest'` (see docs/audio.md). */
  quality?: ResamplerQuality;
}

const EMPTY = new Uint8Array(0);

/**
 * A converter from `from` to `to`: decode, resample if the rates differ (the Speex resampler
 * in WebAssembly, see docs/audio.md), encode. Between PCM s16le, mu-law and A-law the resampler
 * runs on int16 samples (s16le bytes go into it as they are; the bytes out are those of the
 * Float32 path, bit for bit); pcm_f32le on either side goes through Float32. Equal formats give a zero-copy
 * pass-through and an equal rate needs no resampler. The first converter that resamples loads
 * the WebAssembly module (about 10-30 ms, compiled off the event loop; `preloadResampler()` does
 * it ahead); later ones take a few microseconds and hold 1-3 KB.
 *
 * @example
 * const conv = await createAudioConverter({ encoding: 'pcm_s16le', sampleRate: 24000 },
 *                                         { encoding: 'mulaw', sampleRate: 8000 });
 * const out = [conv.push(pcm4800bytes), conv.flush()]; // 800 bytes in total
 * conv.close();
 * @throws RangeError for an unknown encoding, a rate that is not an integer from 1 to
 * 192000 Hz, rates more than 256 times apart, a channel count other than 1 (voxroute
 * converts mono audio only), or an unknown `quality` (checked whether or not the rates differ);
 * TypeError when `from` or `to` is not an object, `options` is not an object or has an unknown
 * key (e.g. `qualty`), and from `push` when its `data` is not a Uint8Array.
 */
export async function createAudioConverter(
  from: AudioFormat,
  to: AudioFormat,
  options: AudioConverterOptions = {},
): Promise<AudioConverter> {
  checkFormat(from, 'from');
  checkFormat(to, 'to');
  checkOptions(options);
  if (sameFormat(from, to)) return new PassThrough(from, to);
  if (from.sampleRate === to.sampleRate) return new Transcoder(from, to);
  const resampler = await Resampler.create(from.sampleRate, to.sampleRate, {
    quality: options.quality ?? 'sinc-fastest',
  });
  return new ResamplingConverter(from, to, resampler);
}

class PassThrough implements AudioConverter {
  constructor(
    readonly from: AudioFormat,
    readonly to: AudioFormat,
  ) {}
  push(data: Uint8Array): Uint8Array {
    checkData(data);
    return data;
  }
  flush(): Uint8Array {
    return EMPTY;
  }
  close(): void {}
}

class Transcoder implements AudioConverter {
  #closed = false;
  constructor(
    readonly from: AudioFormat,
    readonly to: AudioFormat,
  ) {}
  push(data: Uint8Array): Uint8Array {
    if (this.#closed) throw new Error('AudioConverter is closed');
    checkData(data);
    return transcode(data, this.from.encoding, this.to.encoding);
  }
  flush(): Uint8Array {
    return EMPTY;
  }
  close(): void {
    this.#closed = true;
  }
}

class ResamplingConverter implements AudioConverter {
  readonly #resampler: Resampler;
  constructor(
    readonly from: AudioFormat,
    readonly to: AudioFormat,
    resampler: Resampler,
  ) {
    this.#resampler = resampler;
  }
  push(data: Uint8Array): Uint8Array {
    checkData(data);
    return this.#resampler.processEncoded(data, this.from.encoding, this.to.encoding);
  }
  flush(): Uint8Array {
    return encodeFromFloat32(this.#resampler.flush(), this.to.encoding);
  }
  close(): void {
    this.#resampler.close();
  }
}

/** Throws a TypeError naming `push`'s argument unless it is a Uint8Array (a Buffer is one). */
function checkData(data: unknown): void {
  if (!isUint8Array(data)) throw argTypeError('AudioConverter.push(data): data', 'a Uint8Array', data);
}

/** The options are checked even when no resampler is needed, so a typo fails at once, not on another rate. */
function checkOptions(options: AudioConverterOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      `createAudioConverter: options must be an object ({ quality? }), got ${options === null ? 'null' : typeof options}`,
    );
  for (const key of Object.keys(options))
    if (key !== 'quality')
      throw new TypeError(`createAudioConverter: unknown option '${key}'; the only option is quality`);
  const { quality } = options;
  if (quality !== undefined && !Object.hasOwn(SPEEX_QUALITY, quality))
    throw new RangeError(
      `createAudioConverter: unknown quality '${String(quality)}' (expected ${Object.keys(SPEEX_QUALITY).join(', ')})`,
    );
}

function checkFormat(format: AudioFormat, name: 'from' | 'to'): void {
  checkObject(
    `createAudioConverter(from, to, options?): ${name}`,
    'an AudioFormat ({ encoding, sampleRate })',
    format,
  );
  if (!AUDIO_ENCODINGS.includes(format.encoding)) {
    throw new RangeError(
      `createAudioConverter: ${name}.encoding '${String(format.encoding)}' is not one of ${AUDIO_ENCODINGS.join(', ')}`,
    );
  }
  if (!Number.isInteger(format.sampleRate) || format.sampleRate < 1 || format.sampleRate > 192000) {
    throw new RangeError(
      `createAudioConverter: ${name}.sampleRate must be an integer from 1 to 192000 Hz, got ${format.sampleRate}`,
    );
  }
  const channels: number = format.channels ?? 1;
  if (channels !== 1) {
    throw new RangeError(
      `createAudioConverter: only mono audio is supported, ${name} has ${channels} channels (${formatLabel(format)})`,
    );
  }
}
