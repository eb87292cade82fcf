/** Builders of WAV byte streams for tests: any chunk order, sizes and fmt layouts. */

import { concatBytes as join } from '../helpers/index.js';

export { join };

export interface ChunkSpec {
  id: string;
  body: Uint8Array;
  /** Size written in the header instead of body.length (e.g. a placeholder). */
  size?: number;
  /** Omit the RIFF pad byte after an odd-sized body. */
  noPad?: boolean;
}

export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

/** A RIFF/WAVE stream of `chunks`, with a RIFF size of `riffSize` (default: the real one). */
export function riffWave(chunks: readonly ChunkSpec[], riffSize?: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const c of chunks) {
    parts.push(ascii(c.id), u32(c.size ?? c.body.byteLength), c.body);
    if (c.body.byteLength % 2 === 1 && !c.noPad) parts.push(new Uint8Array(1));
  }
  const body = join([ascii('WAVE'), ...parts]);
  return join([ascii('RIFF'), u32(riffSize ?? body.byteLength), body]);
}

export interface FmtSpec {
  tag: number;
  channels?: number;
  rate: number;
  bits: number;
  /** Body size: 16 (PCMWAVEFORMAT), 18 (WAVEFORMATEX, cbSize 0) or 40 (WAVEFORMATEXTENSIBLE). */
  size?: 16 | 18 | 40;
  /** For size 40: the SubFormat tag (first two GUID bytes); the rest is the KSDATAFORMAT base. */
  subFormat?: number;
  /** For size 40: replace the GUID tail by this (to test unknown GUIDs). */
  guidTail?: number[];
  blockAlign?: number;
}

const GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

export function fmtBody(spec: FmtSpec): Uint8Array {
  const size = spec.size ?? 16;
  const channels = spec.channels ?? 1;
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  const blockAlign = spec.blockAlign ?? (channels * spec.bits) / 8;
  v.setUint16(0, spec.tag, true);
  v.setUint16(2, channels, true);
  v.setUint32(4, spec.rate, true);
  v.setUint32(8, spec.rate * blockAlign, true);
  v.setUint16(12, blockAlign, true);
  v.setUint16(14, spec.bits, true);
  if (size >= 18) v.setUint16(16, size - 18, true);
  if (size === 40) {
    v.setUint16(18, spec.bits, true); // valid bits
    v.setUint32(20, 4, true); // channel mask: front centre
    v.setUint16(24, spec.subFormat ?? 1, true);
    b.set(spec.guidTail ?? GUID_TAIL, 26);
  }
  return b;
}

/** `n` bytes 0, 1, 2, ... (mod 256) starting at `start`. */
export function ramp(n: number, start = 0): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (start + i) & 0xff);
}
