import { isUint8Array } from '../internal/arg-checks.js';
import { nameOrShape, valueShape } from '../internal/value-shape.js';
import type { AudioEncoding } from '../types/audio.js';
import { AUDIO_ENCODINGS, assertMono, bytesPerSample } from './format.js';

/**
 * What {@link SampleFramer} needs of a format: the encoding (the channel count is 1: voxroute's
 * audio is mono). Every {@link AudioFormat} fits.
 */
export interface FramingFormat {
  encoding: AudioEncoding;
  /** Channel count: 1 (mono, as every voxroute format). Default: 1. */
  channels?: 1;
  /** Sample rate in Hz: not used (a frame's size does not depend on it), accepted so that any `AudioFormat` can be passed. */
  sampleRate?: number;
}

const EMPTY = new Uint8Array(0);

/**
 * Re-frames a byte stream cut on arbitrary boundaries into whole samples.
 *
 * The unit is one sample (mono): 2 bytes for pcm_s16le, 4 for pcm_f32le, 1 for mulaw/alaw. {@link push} returns the largest prefix of
 * carry + input that is a whole number of frames and keeps the rest (fewer than one frame of
 * bytes) as carry for the next call. Bytes are never padded: padding half a sample shifts
 * every later sample by one byte, which plays as full-scale noise.
 *
 * With no carry the result is a `subarray` view of the caller's bytes (no copy); with a carry
 * a new array of the whole frames is built.
 *
 * @example
 * const framer = new SampleFramer({ encoding: 'pcm_s16le', sampleRate: 24000 });
 * framer.push(new Uint8Array(3)); // 2 bytes
 * framer.push(new Uint8Array(4)); // 4 bytes (1 carried + 3 new, 1 kept)
 * framer.end();                   // { droppedBytes: 1 }
 */
export class SampleFramer {
  /** Bytes of one frame (the framing unit), >= 1. */
  readonly frameBytes: number;
  readonly #carry: Uint8Array;
  #carryLength = 0;

  /**
   * @param format encoding (and `channels`, 1 or omitted) of the stream: any AudioFormat.
   * @throws TypeError when `format` is not an object (`new SampleFramer()`); RangeError when
   *   `format.encoding` is not one of pcm_s16le, pcm_f32le, mulaw, alaw, or `format.channels`
   *   is not 1 (voxroute's audio is mono).
   */
  constructor(format: FramingFormat) {
    if (typeof format !== 'object' || format === null)
      throw new TypeError(
        `new SampleFramer(format): format must be an AudioFormat ({ encoding, sampleRate }), got ${valueShape(format)}`,
      );
    if (!AUDIO_ENCODINGS.includes(format.encoding))
      throw new RangeError(
        `SampleFramer: format.encoding must be one of ${AUDIO_ENCODINGS.join(', ')}, got ${nameOrShape(format.encoding)}`,
      );
    assertMono('SampleFramer', format.channels);
    this.frameBytes = bytesPerSample(format.encoding);
    this.#carry = new Uint8Array(this.frameBytes);
  }

  /** Bytes held back, waiting for the rest of their frame (0 to frameBytes - 1). */
  get pendingBytes(): number {
    return this.#carryLength;
  }

  /**
   * Adds `bytes` and returns every whole frame now available, in order: possibly empty,
   * never padded. The result may be a view of `bytes`; do not mutate `bytes` afterwards if
   * you keep the result.
   * @throws TypeError when `bytes` is not a Uint8Array (a Buffer is one).
   */
  push(bytes: Uint8Array): Uint8Array {
    if (!isUint8Array(bytes))
      throw new TypeError(`SampleFramer.push(bytes): bytes must be a Uint8Array, got ${valueShape(bytes)}`);
    const unit = this.frameBytes;
    if (unit === 1) return bytes;
    const carried = this.#carryLength;
    if (carried === 0) {
      const whole = bytes.byteLength - (bytes.byteLength % unit);
      if (whole === bytes.byteLength) return bytes;
      this.#keep(bytes.subarray(whole), 0);
      return bytes.subarray(0, whole);
    }
    const total = carried + bytes.byteLength;
    if (total < unit) {
      this.#keep(bytes, carried);
      return EMPTY;
    }
    const whole = total - (total % unit);
    const out = new Uint8Array(whole);
    out.set(this.#carry.subarray(0, carried), 0);
    const fromInput = whole - carried;
    out.set(bytes.subarray(0, fromInput), carried);
    this.#keep(bytes.subarray(fromInput), 0);
    return out;
  }

  /**
   * Ends the stream: reports how many stray bytes (less than one frame) were left over and
   * discards them. The framer is then empty and may be reused.
   */
  end(): { droppedBytes: number } {
    const droppedBytes = this.#carryLength;
    this.#carryLength = 0;
    return { droppedBytes };
  }

  /** Clears the carry without reporting it: a new utterance or context starts. */
  reset(): void {
    this.#carryLength = 0;
  }

  #keep(rest: Uint8Array, at: number): void {
    this.#carry.set(rest, at);
    this.#carryLength = at + rest.byteLength;
  }
}

/**
 * Async-generator form of {@link SampleFramer}: yields the non-empty whole-frame chunks of
 * `source`, in order. At the end, a stray tail (less than one frame) is dropped, never padded,
 * and reported to `onDropped(bytes)` when given. Breaking out of the loop closes `source`.
 *
 * @param source raw bytes cut anywhere.
 * @param format encoding that fixes the sample size (mono).
 * @param onDropped called once, at the end, with the number of stray bytes (> 0) dropped.
 */
export async function* frameSamples(
  source: AsyncIterable<Uint8Array>,
  format: FramingFormat,
  onDropped?: (droppedBytes: number) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  const framer = new SampleFramer(format);
  for await (const bytes of source) {
    const whole = framer.push(bytes);
    if (whole.byteLength > 0) yield whole;
  }
  const { droppedBytes } = framer.end();
  if (droppedBytes > 0) onDropped?.(droppedBytes);
}
