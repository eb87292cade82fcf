import { AudioFrame } from '@livekit/rtc-node';

/**
 * A LiveKit audio frame of PCM s16le `bytes` (whole samples, mono) at `sampleRate` Hz. The
 * bytes are copied: an Int16Array needs 2-byte alignment, which a chunk's view may lack.
 */
export function frameOf(bytes: Uint8Array, sampleRate: number): AudioFrame {
  const samples = new Int16Array(bytes.byteLength >> 1);
  new Uint8Array(samples.buffer).set(bytes.subarray(0, samples.length * 2));
  return new AudioFrame(samples, sampleRate, 1, samples.length);
}

/**
 * The PCM s16le bytes of a LiveKit frame, mono: a frame of several channels is mixed down
 * (mean of the channels). Little-endian on any machine (Int16Array is the platform's order).
 */
export function bytesOf(frame: AudioFrame): Uint8Array {
  const n = frame.samplesPerChannel;
  const out = new Uint8Array(n * 2);
  const view = new DataView(out.buffer);
  const channels = frame.channels;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += frame.data[i * channels + c] ?? 0;
    view.setInt16(i * 2, Math.round(sum / channels), true);
  }
  return out;
}
