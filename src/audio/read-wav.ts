import { checkAsyncIterable, checkOptionalFunction, checkOptionalObject } from '../internal/arg-checks.js';
import type { AudioFormat } from '../types/audio.js';
import { SampleFramer } from './sample-framer.js';
import { WavReader } from './wav-reader.js';

/** A WAV stream split into its format and its audio. */
export interface WavStream {
  /**
   * The format from the `fmt ` chunk. Starts reading the source when first awaited (or when
   * `data` is iterated). Rejects with ProtocolError for a malformed header.
   */
  readonly format: Promise<AudioFormat>;
  /**
   * The `data` chunk's audio in whole samples of `format` (single use). Throws ProtocolError
   * for a malformed stream. Breaking out of the loop closes the source.
   */
  readonly data: AsyncIterable<Uint8Array>;
}

/** Options of {@link readWav}. */
export interface ReadWavOptions {
  /** Called at the end with the stray bytes (less than one sample) dropped from the data's end. */
  onDropped?: (droppedBytes: number) => void;
  /** Called at the end when an exact-size `data` chunk lacked this many bytes (stream ended early). */
  onTruncated?: (missingBytes: number) => void;
}

/**
 * Reads a WAV byte stream (e.g. a file's read stream, a TTS response body or `espeak-ng
 * --stdout`) as it arrives: `format` resolves as soon as the `fmt ` chunk is in, `data` yields
 * the audio, framed to whole samples: what `stt()` takes as `format` and `audio`. Reads mono
 * 16-bit PCM, 32-bit float, mu-law and A-law (see docs/audio.md). When an exact-size `data` chunk ends before the stream
 * does, the rest (trailing chunks) is read and ignored, so an HTTP connection stays reusable.
 *
 * @example
 * const wav = readWav(response.body);
 * const format = await wav.format;        // { encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 }
 * for await (const samples of wav.data) speaker.write(samples);
 * @throws TypeError, at the call, when `source` is not an async iterable (`readWav(null)`),
 *   `options` is not an object, or `onDropped`/`onTruncated` is given but not a function.
 */
export function readWav(source: AsyncIterable<Uint8Array>, options: ReadWavOptions = {}): WavStream {
  checkAsyncIterable(
    'readWav(source, options?): source',
    'an async iterable of Uint8Array (a file read stream, a fetch body)',
    source,
  );
  checkOptionalObject('readWav: options', 'an object ({ onDropped?, onTruncated? })', options);
  checkOptionalFunction('readWav: options.onDropped', options?.onDropped);
  checkOptionalFunction('readWav: options.onTruncated', options?.onTruncated);
  const reader = new WavReader();
  const early: Uint8Array[] = [];
  let iterator: AsyncIterator<Uint8Array> | undefined;
  let sourceEnded = false;
  let header: Promise<AudioFormat> | undefined;

  const readHeader = async (): Promise<AudioFormat> => {
    const it = source[Symbol.asyncIterator]();
    iterator = it;
    try {
      while (!reader.format) {
        const next = await it.next();
        if (next.done) {
          sourceEnded = true;
          reader.end(); // throws: the stream ended inside the header
          break;
        }
        const { data } = reader.push(next.value);
        if (data.byteLength > 0) early.push(data);
      }
    } catch (error) {
      if (!sourceEnded) await it.return?.();
      sourceEnded = true;
      throw error;
    }
    return reader.format as AudioFormat;
  };

  const start = (): Promise<AudioFormat> => {
    if (!header) {
      header = readHeader();
      header.catch(() => {}); // the caller may await only `data`; avoid an unhandled rejection
    }
    return header;
  };

  async function* audio(): AsyncGenerator<Uint8Array, void, undefined> {
    const format = await start();
    const framer = new SampleFramer(format);
    let finished = sourceEnded;
    try {
      for (const bytes of early.splice(0)) {
        const whole = framer.push(bytes);
        if (whole.byteLength > 0) yield whole;
      }
      while (!finished) {
        const next = await iterator!.next();
        if (next.done) break;
        const { data } = reader.push(next.value);
        const whole = framer.push(data);
        if (whole.byteLength > 0) yield whole;
      }
      finished = true;
      const { truncatedBytes, rest } = reader.end();
      if (rest) {
        const whole = framer.push(rest);
        if (whole.byteLength > 0) yield whole;
      }
      if (truncatedBytes > 0) options.onTruncated?.(truncatedBytes);
      const { droppedBytes } = framer.end();
      if (droppedBytes > 0) options.onDropped?.(droppedBytes);
    } finally {
      if (!finished) await iterator?.return?.();
    }
  }

  return {
    get format() {
      return start();
    },
    data: audio(),
  };
}
