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
import type { Router, RouterConfig } from '../../src/index.js';
import {
  type Capability,
  expectChargedToA,
  expectOpenedAsMisconfigured,
  routerOverBackup,
  servedByBackup as servedByBackupSaying,
} from './wire/backup.js';
import { type WsWire, wsServer } from './wire/servers.js';

/** A fake key, put together at run time. */
const KEY = ['case', 'key', '1008'].join('-');

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

/** What a TTS call of these tests says. */
const TTS_TEXT = 'Hello there.';

/** A router over provider `a` (the case's, at `url`) then `b` (the backup), priority order. */
const twoProviders = (c: WsCase, url: string) =>
  routerOverBackup(c.config(url), [c.capability], {
    firstChunkTimeoutMs: false,
    ...(c.capability === 'stt' ? { midStream: 'replay' as const } : {}),
  });

/** Checks that the call was served by `b` after `a` failed, and returns a's error. */
const servedByBackup = (r: Router, capability: Capability) => servedByBackupSaying(r, capability, TTS_TEXT);

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
      expectChargedToA(r, breakers, c.capability);
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
      const connections = wire.connections;
      await expectOpenedAsMisconfigured(r, breakers, c.capability, TTS_TEXT);
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
    expectChargedToA(r, breakers, 'stt');
  });
});
