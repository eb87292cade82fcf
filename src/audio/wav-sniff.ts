/** Bytes needed to tell a WAV header (`RIFF....WAVE`) from raw samples. */
export const WAV_SNIFF_BYTES = 12;

/** True when `bytes` starts with `RIFF`, 4 size bytes, then `WAVE`: a WAV file's header. */
export function isWavHeader(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= WAV_SNIFF_BYTES &&
    bytes[0] === 0x52 && // R
    bytes[1] === 0x49 && // I
    bytes[2] === 0x46 && // F
    bytes[3] === 0x46 && // F
    bytes[8] === 0x57 && // W
    bytes[9] === 0x41 && // A
    bytes[10] === 0x56 && // V
    bytes[11] === 0x45 // E
  );
}
