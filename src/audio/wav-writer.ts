import { valueShape } from '../internal/value-shape.js';
import type { AudioFormat } from '../types/audio.js';
import { assertMono, bytesPerSample } from './format.js';

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
 * @throws RangeError naming the field, for an encoding other than pcm_s16le, pcm_f32le, mulaw,
 *   alaw, a `channels` other than 1 (voxroute's audio is mono, and its WAV reader reads mono
 *   only), a `sampleRate` that is not a whole number above 0 (or too large for the header's
 *   byte-rate field), or a `dataBytes` that is not a whole number from 0 to 4294967258 (a
 *   negative, fractional or larger size would be written as another, wrong one) or not a whole
 *   number of samples; TypeError
 *   when `format` is not an object.
 */
export function wavHeader(format: AudioFormat, dataBytes?: number): Uint8Array {
  if (typeof format !== 'object' || format === null)
    throw new TypeError(
      `wavHeader(format, dataBytes?): format must be an AudioFormat ({ encoding, sampleRate }), got ${valueShape(format)}`,
    );
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(header.buffer);
  assertMono('wavHeader', format.channels);
  const width = bytesPerSample(format.encoding);
  const unknown = dataBytes === undefined;
  // The byte rate is a 32-bit field.
  const maxRate = Math.floor(0xffffffff / width);
  if (!Number.isInteger(format.sampleRate) || format.sampleRate < 1 || format.sampleRate > maxRate)
    throw new RangeError(
      `wavHeader: format.sampleRate must be a whole number of Hz from 1 to ${maxRate}, got ${format.sampleRate}`,
    );
  if (!unknown && (!Number.isInteger(dataBytes) || dataBytes < 0 || dataBytes > MAX_DATA_BYTES))
    throw new RangeError(
      `wavHeader: dataBytes must be a whole number from 0 to ${MAX_DATA_BYTES}, got ${dataBytes}`,
    );
  if (!unknown && dataBytes % width !== 0)
    throw new RangeError(
      `wavHeader: dataBytes must be a whole number of ${width}-byte frames (${format.encoding}, 1 channel), got ${dataBytes}`,
    );
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) header[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  // RIFF pads a chunk of odd size with one byte, counted in the RIFF size (encodeWav writes it).
  view.setUint32(4, unknown ? 0xffffffff : 36 + dataBytes + (dataBytes % 2), true);
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
  view.setUint32(40, unknown ? 0xffffffff : dataBytes, true);
  return header;
}

/**
 * A whole WAV file: header plus `data`, plus RIFF's pad byte (0) when `data` has an odd
 * length (8-bit mu-law or A-law with an odd number of samples).
 * @throws RangeError as {@link wavHeader} does (a `data` that is not whole frames); TypeError
 *   when `data` is not a Uint8Array (a Buffer is one), or as {@link wavHeader} does.
 */
export function encodeWav(format: AudioFormat, data: Uint8Array): Uint8Array {
  // By tag, not instanceof: a Uint8Array of another realm (a vm context, jsdom) is one too.
  if (Object.prototype.toString.call(data) !== '[object Uint8Array]')
    throw new TypeError(
      `encodeWav(format, data): data must be a Uint8Array of audio bytes, got ${valueShape(data)}`,
    );
  const out = new Uint8Array(WAV_HEADER_BYTES + data.byteLength + (data.byteLength % 2));
  out.set(wavHeader(format, data.byteLength), 0);
  out.set(data, WAV_HEADER_BYTES);
  return out;
}
