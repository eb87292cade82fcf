/**
 * A WebSocket close 1008 (policy violation) is an auth failure only when its reason says so.
 * Providers also close with 1008 for a used-up quota, too many concurrent connections, a rate
 * limit or an input timeout: those are passing conditions, so the call falls back to the next
 * provider and the first is charged an ordinary failure (its breaker stays closed, it is not
 * marked misconfigured). An "invalid API key" reason is still auth: the breaker opens at once
 * as misconfigured. Deepgram's `DATA-*` reasons (audio it cannot decode) stay not retryable.
 * Each server speaks the wire on its own (`ws` and node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProviderError, type Router, type RouterConfig } from '../../src/index.js';
import {
  answerPcm,
  batchStt,
  drain,
  httpServer,
  pcmSignal,
  pieces,
  router,
  type WsWire,
  wsServer,
} from './wire/servers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const FORMAT16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const AUDIO = pcmSignal(2400, 24_000);
const SPEECH = pcmSignal(16_000, 16_000, 2);
const TRANSCRIPT = 'heard by the backup';
/** A fake key, put together at run time. */
const KEY = ['case', 'key', '1008'].join('-');

type Capability = 'tts' | 'stt';
type ProviderConfig = RouterConfig['providers'][string];

/** One WebSocket provider under test: its capability, its config and a server closing with 1008. */
interface WsCase {
  name: string;
  capability: Capability;
  config: (url: string) => ProviderConfig;
  /** A server that closes each call's socket with 1008 and `reason`. */
  server: (reason: string) => Promise<WsWire>;
}

/** Closes the socket with 1008 and `reason` as soon as it opens (before any answer). */
const closingAtOpen = (reason: string) => wsServer((ws: WebSocket) => ws.close(1008, reason));

/** Closes the socket with 1008 and `reason` at the first message from the client. */
const closingAtFirstMessage = (reason: string) =>
  wsServer((ws: WebSocket) => {
    ws.once('message', () => ws.close(1008, reason));
  });

/**
 * ElevenLabs stream-input: at the first message, the error message `{"message","error","code":1008}`
 * it sends before its close 1008 (the error code is the close reason), PROTOCOLS' stream-input
 * error shape.
 */
const elevenLabsRefusing = (reason: string) =>
  wsServer((ws: WebSocket) => {
    ws.once('message', () => {
      const error = reason.toLowerCase().includes('key') ? 'invalid_api_key' : 'concurrent_limit_exceeded';
      ws.send(JSON.stringify({ message: reason, error, code: 1008 }));
      ws.close(1008, error);
    });
  });

const CASES: WsCase[] = [
  {
    name: 'Deepgram listen',
    capability: 'stt',
    config: (url) => ({ kind: 'deepgram', baseUrl: url, apiKey: KEY, stt: { model: 'nova-3' } }),
    server: closingAtOpen,
  },
  {
    name: 'Cartesia STT WebSocket',
    capability: 'stt',
    config: (url) => ({ kind: 'cartesia', baseUrl: url, apiKey: KEY, stt: { model: 'ink-whisper' } }),
    server: closingAtOpen,
  },
  {
    name: 'Cartesia TTS WebSocket',
    capability: 'tts',
    config: (url) => ({
      kind: 'cartesia',
      baseUrl: url,
      apiKey: KEY,
      tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
    }),
    server: closingAtFirstMessage,
  },
  {
    name: 'ElevenLabs stream-input',
    capability: 'tts',
    config: (url) => ({
      kind: 'elevenlabs',
      baseUrl: url,
      apiKey: KEY,
      tts: { voices: { agent: 'el-voice' }, transport: 'websocket' },
    }),
    server: elevenLabsRefusing,
  },
];

/** The working second provider of `capability`: an OpenAI-compatible speech or batch transcription server. */
async function backup(capability: Capability): Promise<ProviderConfig> {
  if (capability === 'tts') {
    const wire = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => answerPcm(res, AUDIO));
    });
    return {
      kind: 'openai-compatible',
      baseUrl: `${wire.url}/v1`,
      tts: { voices: { agent: 'v' }, responseFormat: 'pcm' },
    };
  }
  const stt = await batchStt(TRANSCRIPT);
  return { kind: 'openai-compatible', baseUrl: `${stt.url}/v1`, stt: { model: 'whisper', streaming: false } };
}

/** One call of `capability` through `r`: what the caller got, the error if any, and the result. */
async function call(r: Router, capability: Capability) {
  const stream =
    capability === 'tts'
      ? r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K })
      : r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT16K });
  const { items, error } = await drain(stream as AsyncIterable<unknown>);
  return { items, error, result: error === undefined ? await stream.result : undefined };
}

/** Health of `provider` for `capability` in `router.stats()`. */
function health(r: Router, provider: string, capability: Capability) {
  const row = r.stats().providers.find((p) => p.provider === provider && p.capability === capability);
  return { breaker: row?.breaker, errors: row?.errors, misconfigured: row?.misconfigured };
}

/** A router over provider `a` (the case's, at `url`) then `b` (the backup), priority order. */
async function twoProviders(c: WsCase, url: string) {
  const config: RouterConfig = {
    providers: { a: c.config(url), b: await backup(c.capability) },
    routes: {
      [c.capability]: {
        providers: ['a', 'b'],
        strategy: 'priority',
        firstChunkTimeoutMs: false,
        ...(c.capability === 'stt' ? { midStream: 'replay' } : {}),
      },
    },
  };
  const r = router(config);
  const breakers: string[] = [];
  r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}:${e.reason}`));
  return { r, breakers };
}

/** Checks that the call was served by `b` after `a` failed, and returns a's error. */
async function servedByBackup(r: Router, capability: Capability): Promise<ProviderError> {
  const { items, error, result } = await call(r, capability);
  expect(error).toBe(undefined);
  if (capability === 'tts') {
    const bytes = Buffer.concat(items.map((c) => Buffer.from((c as { data: Uint8Array }).data)));
    expect(bytes.equals(AUDIO)).toBe(true);
  } else {
    expect(items).toEqual([expect.objectContaining({ type: 'final', text: TRANSCRIPT })]);
  }
  expect(result!.provider).toBe('b');
  expect(result!.attempts.map((a) => [a.provider, a.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
  const failure = result!.attempts[0]!.error;
  expect(failure).toBeInstanceOf(ProviderError);
  return failure as ProviderError;
}

describe('WebSocket close 1008: transient reasons fall back as ordinary failures, auth reasons stay auth', () => {
  for (const c of CASES) {
    it(`${c.name}: 1008 "Too many concurrent connections, quota exceeded" -> served by the backup, retryable, not auth, breaker closed`, async () => {
      const wire = await c.server('Too many concurrent connections: quota exceeded for this account');
      const { r, breakers } = await twoProviders(c, wire.url);
      const error = await servedByBackup(r, c.capability);
      expect([error.status, error.retryable, error.isAuthError, error.provider]).toEqual([
        1008,
        true,
        false,
        'a',
      ]);
      expect(health(r, 'a', c.capability)).toEqual({ breaker: 'closed', errors: 1, misconfigured: false });
      expect(breakers).toEqual([]);
      // Still a candidate: the next call goes to it first again.
      await servedByBackup(r, c.capability);
      expect(wire.connections).toBeGreaterThanOrEqual(2);
    });

    it(`${c.name}: 1008 "Invalid API key" -> served by the backup, not retryable, auth, breaker open as misconfigured`, async () => {
      const wire = await c.server('Invalid API key');
      const { r, breakers } = await twoProviders(c, wire.url);
      const error = await servedByBackup(r, c.capability);
      expect([error.status, error.retryable, error.isAuthError, error.provider]).toEqual([
        1008,
        false,
        true,
        'a',
      ]);
      expect(breakers).toEqual(['a:closed->open:auth']);
      expect(health(r, 'a', c.capability)).toMatchObject({ breaker: 'open', misconfigured: true });
      const connections = wire.connections;
      const { result } = await call(r, c.capability);
      expect(result!.attempts.map((a) => a.provider)).toEqual(['b']);
      expect(wire.connections).toBe(connections);
    });
  }

  it('Deepgram listen: 1008 "DATA-0000" (audio it cannot decode) stays not retryable and is not auth', async () => {
    const wire = await closingAtOpen(
      'DATA-0000: The payload cannot be decoded as audio. It is either not audio data or is a codec unsupported by Deepgram.',
    );
    const { r, breakers } = await twoProviders(CASES[0]!, wire.url);
    const error = await servedByBackup(r, 'stt');
    expect([error.status, error.providerCode, error.retryable, error.isAuthError]).toEqual([
      1008,
      'DATA-0000',
      false,
      false,
    ]);
    expect(breakers).toEqual([]);
    expect(health(r, 'a', 'stt')).toEqual({ breaker: 'closed', errors: 1, misconfigured: false });
  });
});
