/**
 * Duration in seconds of the audio in a RIFF/WAVE file, from its `fmt ` byte rate and its
 * `data` size (a placeholder size, as streamed WAVs carry, counts as "to the end of the
 * bytes"). Undefined when `bytes` is not a WAV file.
 */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  if (bytes.byteLength < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= bytes.byteLength; ) {
    const size = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (tag(offset) === 'fmt ' && start + 12 <= bytes.byteLength) byteRate = view.getUint32(start + 8, true);
    if (tag(offset) === 'data') {
      const dataBytes = Math.min(size, bytes.byteLength - start);
      return byteRate > 0 ? dataBytes / byteRate : undefined;
    }
    offset = start + size + (size % 2);
  }
  return undefined;
}
