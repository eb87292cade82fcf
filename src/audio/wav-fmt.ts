import { ProtocolError } from '../errors/protocol-error.js';
import type { AudioEncoding, AudioFormat } from '../types/audio.js';

/** WAVE_FORMAT_EXTENSIBLE: the real format tag is the first two bytes of the SubFormat GUID. */
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * Bytes 2..15 of every KSDATAFORMAT_SUBTYPE_* GUID built on a WAVE format tag
 * ({0000xxxx-0000-0010-8000-00AA00389B71} in little-endian GUID layout; Microsoft mmreg.h/ksmedia.h).
 */
const SUBFORMAT_GUID_TAIL = [
  0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
];

/** Format tag -> encoding and the only bits per sample voxroute reads for it. */
const TAGS: Record<number, { encoding: AudioEncoding; bits: number; name: string }> = {
  1: { encoding: 'pcm_s16le', bits: 16, name: 'PCM' }, // WAVE_FORMAT_PCM
  3: { encoding: 'pcm_f32le', bits: 32, name: 'float' }, // WAVE_FORMAT_IEEE_FLOAT
  6: { encoding: 'alaw', bits: 8, name: 'A-law' }, // WAVE_FORMAT_ALAW
  7: { encoding: 'mulaw', bits: 8, name: 'mu-law' }, // WAVE_FORMAT_MULAW
};

/** The WAV sample formats voxroute reads, as error messages list them. */
const READ_FORMATS = '16-bit PCM, 32-bit float, 8-bit mu-law and 8-bit A-law';

/**
 * Reads a WAV `fmt ` chunk body (16, 18 or 40+ bytes; Microsoft RIFF/WAVE and
 * WAVEFORMATEXTENSIBLE layouts) into an {@link AudioFormat}.
 *
 * @param body the chunk's body (without its 8-byte header).
 * @param offset byte offset of `body` in the stream, for error offsets.
 * @throws ProtocolError (with the offset of the offending field) when the body is shorter than
 * 16 bytes, the tag is not PCM, IEEE float, A-law or mu-law (directly or through an EXTENSIBLE
 * SubFormat GUID), the bits per sample do not fit the tag (only 16-bit PCM, 32-bit float and
 * 8-bit G.711 are read), the block align does not match, the rate is 0, or there is more than
 * one channel (voxroute handles mono only).
 */
export function parseWavFmt(body: Uint8Array, offset: number): AudioFormat {
  if (body.byteLength < 16) {
    throw new ProtocolError(`WAV fmt chunk is ${body.byteLength} bytes; at least 16 expected`, { offset });
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let tag = view.getUint16(0, true);
  let tagOffset = offset;
  const channels = view.getUint16(2, true);
  const sampleRate = view.getUint32(4, true);
  const blockAlign = view.getUint16(12, true);
  const bits = view.getUint16(14, true);

  if (tag === WAVE_FORMAT_EXTENSIBLE) {
    if (body.byteLength < 40) {
      throw new ProtocolError(
        `WAV fmt chunk with WAVE_FORMAT_EXTENSIBLE is ${body.byteLength} bytes; 40 expected`,
        {
          offset,
        },
      );
    }
    tagOffset = offset + 24;
    const known = SUBFORMAT_GUID_TAIL.every((byte, i) => body[26 + i] === byte);
    if (!known) throw new ProtocolError('WAV fmt chunk has an unknown SubFormat GUID', { offset: tagOffset });
    tag = view.getUint16(24, true);
  }

  const spec = TAGS[tag];
  if (!spec) {
    throw new ProtocolError(
      `WAV format tag 0x${tag.toString(16).padStart(4, '0')} is not supported (PCM, float, mu-law, A-law are)`,
      {
        offset: tagOffset,
      },
    );
  }
  if (bits !== spec.bits) {
    throw new ProtocolError(`WAV ${bits}-bit ${spec.name} is not supported: voxroute reads ${READ_FORMATS}`, {
      offset: offset + 14,
    });
  }
  if (channels !== 1) {
    throw new ProtocolError(`WAV has ${channels} channels; voxroute reads mono audio only`, {
      offset: offset + 2,
    });
  }
  if (sampleRate === 0) throw new ProtocolError('WAV sample rate is 0', { offset: offset + 4 });
  if (blockAlign !== (bits / 8) * channels) {
    throw new ProtocolError(`WAV block align ${blockAlign} does not match ${channels} x ${bits} bits`, {
      offset: offset + 12,
    });
  }
  return { encoding: spec.encoding, sampleRate, channels: 1 };
}
