/**
 * ElevenLabs stream-input reporting a used-up quota with close code 1011 (its error message
 * `{"message","error":"quota_exceeded","code":1011}`, then the close): a passing condition, as
 * when the same quota comes with 1008. The call falls back to the next provider and the first is
 * charged an ordinary failure: `retryable`, not auth, its breaker closed and not misconfigured, so
 * the next call tries it first again. An error it cannot get over (`invalid_request` with 1011)
 * stays not retryable. The server speaks the wire on its own (`ws` on loopback).
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProviderError, type Router } from '../../src/index.js';
import { answerPcm, drain, httpServer, pcmSignal, router, wsServer } from './wire/servers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const AUDIO = pcmSignal(2400, 24_000);
/** A fake key, put together at run time. */
const KEY = ['case', 'quota', '1011'].join('-');

/** A stream-input server that answers the first message with error `error` and closes with 1011. */
const refusingWith1011 = (error: string, message: string) =>
  wsServer((ws: WebSocket) => {
    ws.once('message', () => {
      ws.send(JSON.stringify({ message, error, code: 1011 }));
      ws.close(1011, error);
    });
  });

/** A router over ElevenLabs stream-input at `url` then an OpenAI-compatible speech backup. */
async function twoProviders(url: string) {
  const b = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => answerPcm(res, AUDIO));
  });
  const r = router({
    providers: {
      a: {
        kind: 'elevenlabs',
        baseUrl: url,
        apiKey: KEY,
        tts: { voices: { agent: 'el-voice' }, transport: 'websocket' },
      },
      b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { agent: 'v' } } },
    },
    routes: { tts: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
  });
  const breakers: string[] = [];
  r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}:${e.reason}`));
  return { r, breakers };
}

/** One TTS call served by the backup after `a` failed; returns a's error. */
async function servedByBackup(r: Router): Promise<ProviderError> {
  const stream = r.tts({ text: 'Your table is booked.', voice: 'agent', format: PCM24K });
  const { items, error } = await drain(stream);
  expect(error).toBe(undefined);
  expect(Buffer.concat(items.map((c) => Buffer.from(c.data))).equals(AUDIO)).toBe(true);
  const result = await stream.result;
  expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
  expect(result.attempts[0]!.error).toBeInstanceOf(ProviderError);
  return result.attempts[0]!.error as ProviderError;
}

describe('ElevenLabs stream-input quota_exceeded with close 1011 is a transient failure', () => {
  it('quota_exceeded + 1011: served by the backup, retryable, not auth, breaker closed, tried first again', async () => {
    const a = await refusingWith1011('quota_exceeded', 'This request exceeds your quota of 10000.');
    const { r, breakers } = await twoProviders(a.url);
    const error = await servedByBackup(r);
    expect([error.status, error.providerCode, error.retryable, error.isAuthError, error.provider]).toEqual([
      1011,
      'quota_exceeded',
      true,
      false,
      'a',
    ]);
    expect(error.message).toContain('This request exceeds your quota of 10000.');
    const row = () => r.stats().providers.find((p) => p.provider === 'a' && p.capability === 'tts');
    expect([row()?.breaker, row()?.errors, row()?.misconfigured]).toEqual(['closed', 1, false]);
    expect(breakers).toEqual([]);
    // Still the first candidate: the next call goes to it again.
    await servedByBackup(r);
    expect(a.connections).toBe(2);
    expect([row()?.breaker, row()?.errors]).toEqual(['closed', 2]);
  });

  it('invalid_request + 1011 stays not retryable (the request is what is wrong)', async () => {
    const a = await refusingWith1011('invalid_request', 'The text you sent could not be read.');
    const { r } = await twoProviders(a.url);
    const error = await servedByBackup(r);
    expect([error.status, error.providerCode, error.retryable, error.isAuthError]).toEqual([
      1011,
      'invalid_request',
      false,
      false,
    ]);
  });
});
