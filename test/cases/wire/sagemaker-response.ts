/**
 * What the SageMaker response-stream cases share: an endpoint writing event-stream bytes on its
 * own, the provider and route config, and a TTS call through them.
 */
import { expect } from 'vitest';
import {
  type AudioChunk,
  MidStreamError,
  ProtocolError,
  type RouterConfig,
  type VoxrouteError,
} from '../../../src/index.js';
import { concat, drain, type HttpWire, httpServer, router } from './servers.js';

/** AWS's documented example credentials: requests are signed, never checked. */
export const EXAMPLE_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

/** An endpoint answering 200 with `body` (event-stream bytes, written on its own), then ending the body cleanly. */
export function answeringEventStream(body: Buffer): Promise<HttpWire> {
  return httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.end(body);
    });
  });
}

/**
 * A SageMaker TTS provider at `url` (endpoint `voice`, us-east-1, {@link EXAMPLE_CREDENTIALS}) on
 * the response or bidirectional `stream`: raw PCM at 24 kHz, voice `agent`.
 */
export const sageMakerTts = (url: string, stream: 'response' | 'bidirectional') => ({
  kind: 'sagemaker' as const,
  region: 'us-east-1',
  endpointName: 'voice',
  endpointUrl: url,
  credentials: EXAMPLE_CREDENTIALS,
  tts: { voices: { agent: 'v' }, payload: 'raw-pcm' as const, sampleRate: 24_000, stream },
});

/** {@link sageMakerTts} on the response stream. */
export const responseStreamTts = (url: string) => sageMakerTts(url, 'response');

/** A config with `providers` and a `tts` route over them in that order (priority). */
export const ttsRouteOver = (
  providers: RouterConfig['providers'],
  extra: Record<string, unknown> = {},
): RouterConfig =>
  ({
    providers,
    routes: { tts: { providers: Object.keys(providers), strategy: 'priority', ...extra } },
  }) as RouterConfig;

/** One TTS call ('Hello there.', voice `agent`) through a router over `config`: what it yielded and how it ended. */
export function speakOver(config: RouterConfig) {
  return drain(router(config).tts({ text: 'Hello there.', voice: 'agent' }));
}

/**
 * One TTS call ('Hello there.', voice `agent`) through a router over `config`, where `a` fails
 * and `b` serves: checks the caller got `audio` whole with no error, b served it, and there was
 * one fallback; returns the error a's fallback carried.
 */
export async function fallbackFromA(config: RouterConfig, audio: Buffer): Promise<VoxrouteError> {
  const r = router(config);
  const fallbacks: unknown[] = [];
  r.on('fallback', (e) => fallbacks.push(e.error));
  const stream = r.tts({ text: 'Hello there.', voice: 'agent' });
  const { items, error } = await drain(stream);
  expect(error).toBeUndefined();
  expect(concat(items.map((c) => c.data)).equals(audio)).toBe(true);
  expect(fallbacks).toHaveLength(1);
  expect((await stream.result).provider).toBe('b');
  return fallbacks[0] as VoxrouteError;
}

/**
 * Checks a call that yielded `first` and then failed mid-stream: `items` are `first` whole, the
 * error a MidStreamError whose cause is a retryable ProtocolError with `partialOutput`; returns
 * that cause.
 */
export function protocolErrorAfter(
  first: Buffer,
  items: readonly AudioChunk[],
  error: unknown,
): ProtocolError {
  expect(concat(items.map((c) => c.data)).equals(first)).toBe(true);
  expect(MidStreamError.isInstance(error)).toBe(true);
  const cause = (error as MidStreamError).cause as ProtocolError;
  expect(ProtocolError.isInstance(cause)).toBe(true);
  expect(cause.retryable).toBe(true);
  expect(cause.partialOutput).toBe(true);
  return cause;
}
