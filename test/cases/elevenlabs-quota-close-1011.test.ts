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
import { expectChargedToA, health, routerOverBackup, servedByBackup } from './wire/backup.js';
import { wsServer } from './wire/servers.js';

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
const twoProviders = (url: string) =>
  routerOverBackup(
    {
      kind: 'elevenlabs',
      baseUrl: url,
      apiKey: KEY,
      tts: { voices: { agent: 'el-voice' }, transport: 'websocket' },
    },
    ['tts'],
    { firstChunkTimeoutMs: false },
  );

describe('ElevenLabs stream-input quota_exceeded with close 1011 is a transient failure', () => {
  it('quota_exceeded + 1011: served by the backup, retryable, not auth, breaker closed, tried first again', async () => {
    const a = await refusingWith1011('quota_exceeded', 'This request exceeds your quota of 10000.');
    const { r, breakers } = await twoProviders(a.url);
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.providerCode, error.retryable, error.isAuthError, error.provider]).toEqual([
      1011,
      'quota_exceeded',
      true,
      false,
      'a',
    ]);
    expect(error.message).toContain('This request exceeds your quota of 10000.');
    expectChargedToA(r, breakers, 'tts');
    // Still the first candidate: the next call goes to it again.
    await servedByBackup(r, 'tts');
    expect(a.connections).toBe(2);
    expect(health(r, 'a', 'tts')).toMatchObject({ breaker: 'closed', errors: 2 });
  });

  it('invalid_request + 1011 stays not retryable (the request is what is wrong)', async () => {
    const a = await refusingWith1011('invalid_request', 'The text you sent could not be read.');
    const { r } = await twoProviders(a.url);
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.providerCode, error.retryable, error.isAuthError]).toEqual([
      1011,
      'invalid_request',
      false,
      false,
    ]);
  });
});
