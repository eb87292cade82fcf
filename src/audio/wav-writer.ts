import { valueShape } from '../internal/value-shape.js';
import type { AudioFormat } from '../types/audio.js';
import { AUDIO_ENCODINGS, assertMono, bytesPerSample } from './format.js';

/** WAV `fmt ` format tags (Microsoft RIFF spec): 1 PCM, 3 IEEE float, 6 A-law, 7 mu-law. */
export const WAV_FORMAT_TAG = { pcm_s16le: 1, pcm_f32le: 3, alaw: 6, mulaw: 7 } as const;

/** Size in bytes of the header {@link wavHeader} writes. */
export const WAV_HEADER_BYTES = 44;

/**
 * The largest `data` size a header can state: the RIFF size (36 + data + a pad byte when data
 * is odd) is a 32-bit field below 0xFFFFFFFF (the placeholder of an unknown length).
 */
const MAX_DATA_BYTES = 0xffffffff - 37;

/**
 * A 44-byte canonical WAV header (RIFF, `fmt ` of 16 bytes, `data`) for `format` (mono).
 * `dataBytes` is the length of the audio that follows; omit it for a stream of unknown length,
 * which writes the placeholder size 0xFFFFFFFF ("until the end", as streaming servers do).
 * Arguments are checked in order: `format` (an object, then its `channels`, `encoding` and
 * `sampleRate`), then `dataBytes`; the first wrong one is named, with `wavHeader`.
 * @throws RangeError naming the field, for an encoding other than pcm_s16le, pcm_f32le, mulaw,
 *   alaw, a `channels` other than 1 (voxroute's audio is mono, and its WAV reader reads mono
 *   only), a `sampleRate` that is not a whole number above 0 (or too large for the header's
 *   byte-rate field), or a `dataBytes` that is not a whole number from 0 to 4294967258 (a
 *   negative, fractional or larger size would be written as another, wrong one) or not a whole
 *   number of samples; TypeError
 *   when `format` is not an object.
 */
export function wavHeader(format: AudioFormat, dataBytes?: number): Uint8Array {
  const width = checkedWidth('wavHeader', 'wavHeader(format, dataBytes?)', format);
  if (dataBytes !== undefined) checkDataBytes('wavHeader: dataBytes', format, width, dataBytes);
  return header(format, width, dataBytes);
}

/**
 * Checks `format` for `fn` (`signature` in a TypeError): an object, then its `channels`,
 * `encoding` and `sampleRate`, in that order. Returns the bytes of one sample.
 */
function checkedWidth(fn: string, signature: string, format: AudioFormat): number {
  if (typeof format !== 'object' || format === null)
    throw new TypeError(
      `${signature}: format must be an AudioFormat ({ encoding, sampleRate }), got ${valueShape(format)}`,
    );
  assertMono(fn, format.channels);
  if (!AUDIO_ENCODINGS.includes(format.encoding))
    throw new RangeError(
      `${fn}: format.encoding must be one of ${AUDIO_ENCODINGS.join(', ')}, got ${typeof format.encoding === 'string' ? `'${format.encoding}'` : valueShape(format.encoding)}`,
    );
  const width = bytesPerSample(format.encoding);
  // The byte rate is a 32-bit field.
  const maxRate = Math.floor(0xffffffff / width);
  if (!Number.isInteger(format.sampleRate) || format.sampleRate < 1 || format.sampleRate > maxRate)
    throw new RangeError(
      `${fn}: format.sampleRate must be a whole number of Hz from 1 to ${maxRate}, got ${format.sampleRate}`,
    );
  return width;
}

/** Checks a data size (`name` in messages) against the header's bounds and whole frames. */
function checkDataBytes(name: string, format: AudioFormat, width: number, dataBytes: number): void {
  if (!Number.isInteger(dataBytes) || dataBytes < 0 || dataBytes > MAX_DATA_BYTES)
    throw new RangeError(`${name} must be a whole number from 0 to ${MAX_DATA_BYTES}, got ${dataBytes}`);
  if (dataBytes % width !== 0)
    throw new RangeError(
      `${name} must be a whole number of ${width}-byte frames (${format.encoding}, 1 channel), got ${dataBytes}`,
    );
}

/** The header of checked `format` (`width` bytes a sample) and data size (undefined: unknown). */
function header(format: AudioFormat, width: number, dataBytes: number | undefined): Uint8Array {
  const out = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const unknown = dataBytes === undefined;
  const size = dataBytes ?? 0;
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  // RIFF pads a chunk of odd size with one byte, counted in the RIFF size (encodeWav writes it).
  view.setUint32(4, unknown ? 0xffffffff : 36 + size + (size % 2), true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, WAV_FORMAT_TAG[format.encoding], true);
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * width, true);
  view.setUint16(32, width, true);
  view.setUint16(34, width * 8, true);
  ascii(36, 'data');
  view.setUint32(40, unknown ? 0xffffffff : size, true);
  return out;
}

/**
 * A whole WAV file: header plus `data`, plus RIFF's pad byte (0) when `data` has an odd
 * length (8-bit mu-law or A-law with an odd number of samples). Arguments are checked in
 * order, as the signature reads: `format` (as {@link wavHeader} checks it), then `data`; the
 * first wrong one is named, with `encodeWav`.
 * @throws TypeError when `format` is not an object or `data` is not a Uint8Array (a Buffer is
 *   one); RangeError naming the field as {@link wavHeader} does, and for a `data` that is not
 *   whole frames.
 */
export function encodeWav(format: AudioFormat, data: Uint8Array): Uint8Array {
  const width = checkedWidth('encodeWav', 'encodeWav(format, data)', format);
  // By tag, not instanceof: a Uint8Array of another realm (a vm context, jsdom) is one too.
  if (Object.prototype.toString.call(data) !== '[object Uint8Array]')
    throw new TypeError(
      `encodeWav(format, data): data must be a Uint8Array of audio bytes, got ${valueShape(data)}`,
    );
  checkDataBytes('encodeWav: data.byteLength', format, width, data.byteLength);
  const out = new Uint8Array(WAV_HEADER_BYTES + data.byteLength + (data.byteLength % 2));
  out.set(header(format, width, data.byteLength), 0);
  out.set(data, WAV_HEADER_BYTES);
  return out;
}
