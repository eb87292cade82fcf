/**
 * Shared setup of the LiveKit plugin tests: the real @livekit/agents classes driven directly
 * (no LiveKit server), over a router whose providers are voxroute's OpenAI-compatible mocks on
 * loopback ports.
 */
import { initializeLogger } from '@livekit/agents';
import { AudioFrame } from '@livekit/rtc-node';

// The agents' classes log through a process-wide logger that an app's cli.runApp() sets up.
initializeLogger({ pretty: false, level: 'silent' });

export { ALWAYS_503, twoProviders } from '../helpers/mock-router.js';

/** LiveKit's retry settings at their most eager, to show that voxroute's errors are not retried. */
export const RETRY_3 = { maxRetry: 3, retryIntervalMs: 0, timeoutMs: 10_000 };

/** PCM s16le bytes cut into LiveKit frames of `frameMs` at `sampleRate`. */
export function framesOf(pcm: Uint8Array, sampleRate: number, frameMs = 10): AudioFrame[] {
  const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
  const per = (sampleRate * frameMs) / 1000;
  const frames: AudioFrame[] = [];
  for (let i = 0; i < samples.length; i += per) {
    const part = samples.slice(i, i + per);
    frames.push(new AudioFrame(part, sampleRate, 1, part.length));
  }
  return frames;
}

/** The PCM s16le bytes of frames, end to end. */
export function pcmOf(frames: readonly AudioFrame[]): Buffer {
  return Buffer.concat(frames.map((f) => Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)));
}
