/**
 * Shared setup of the LiveKit plugin tests: the real @livekit/agents classes driven directly
 * (no LiveKit server), over a router whose providers are voxroute's OpenAI-compatible mocks on
 * loopback ports.
 */
import { initializeLogger } from '@livekit/agents';
import { AudioFrame } from '@livekit/rtc-node';
import { afterEach } from 'vitest';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMock,
  type OpenAiCompatibleMockOptions,
  startMockServer,
} from '../../src/testing/index.js';

// The agents' classes log through a process-wide logger that an app's cli.runApp() sets up.
initializeLogger({ pretty: false, level: 'silent' });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Two OpenAI-compatible mocks `a` and `b` on loopback, and a router with `a` first on every route. */
export async function twoProviders(a: OpenAiCompatibleMockOptions = {}, b: OpenAiCompatibleMockOptions = {}) {
  const mocks = { a: createOpenAiCompatibleMock(a), b: createOpenAiCompatibleMock(b) };
  const servers = await Promise.all([
    startMockServer({ provider: mocks.a }),
    startMockServer({ provider: mocks.b }),
  ]);
  for (const s of servers) closers.push(() => s.close());
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'llama-8b' } },
    tts: { voices: { agent: 'af_heart' } },
    stt: { model: 'whisper' },
  });
  const config: RouterConfig = {
    providers: { a: provider(servers[0]!.url), b: provider(servers[1]!.url) },
    routes: {
      chat: { providers: ['a', 'b'], strategy: 'priority' },
      tts: { providers: ['a', 'b'], strategy: 'priority' },
      stt: { providers: ['a', 'b'], strategy: 'priority' },
    },
  };
  const router: Router = createRouter(config);
  closers.push(() => router.close());
  return { router, a: mocks.a as OpenAiCompatibleMock, b: mocks.b as OpenAiCompatibleMock };
}

/** A mock script under which every request fails with HTTP 503. */
export const ALWAYS_503 = { failTimes: 1000, failStatus: 503 } as const;

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
