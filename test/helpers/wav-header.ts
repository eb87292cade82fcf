/**
 * A canonical 44-byte RIFF/WAVE header of mono audio, written byte by byte here (independent of
 * src/audio, so a test can check what voxroute writes or reads against it): `RIFF`, the RIFF
 * size, `WAVE`, a 16-byte `fmt ` chunk (format `tag`, 1 channel, `sampleRate`, its byte rate and
 * block align for `bits` per sample), then the `data` chunk's id and `dataBytes`. The RIFF size
 * is `riffBytes` when given (e.g. 0xffffffff, a streaming placeholder), else 36 + `dataBytes`
 * (0xffffffff at most). Defaults: PCM (tag 1), 16 bits.
 */
export function wavHeaderByHand(
  sampleRate: number,
  dataBytes: number,
  { tag = 1, bits = 16, riffBytes }: { tag?: number; bits?: number; riffBytes?: number } = {},
): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(riffBytes ?? Math.min(36 + dataBytes, 0xffffffff), 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(tag, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE((sampleRate * bits) / 8, 28);
  h.writeUInt16LE(bits / 8, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
