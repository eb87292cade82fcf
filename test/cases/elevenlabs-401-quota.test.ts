/**
 * ElevenLabs answers HTTP 401 not only for a bad key but also when the account's character quota
 * is used up (`{"detail":{"status":"quota_exceeded"}}`) or its free tier is paused for unusual
 * activity (`detected_unusual_activity`). Those are passing account limits: the call falls back
 * to the next provider and ElevenLabs is charged an ordinary failure (retryable, not auth, its
 * breaker is not opened as misconfigured). Any other 401 stays an auth failure. The servers
 * speak the wire on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import {
  expectChargedToA,
  expectOpenedAsMisconfigured,
  routerOverBackup,
  servedByBackup,
} from './wire/backup.js';
import { httpServer } from './wire/servers.js';

/** A fake key, put together at run time. */
const KEY = ['case', 'eleven', 'key'].join('-');

/** An ElevenLabs HTTP server answering every TTS request with `status` and `body`; records the paths. */
async function elevenLabs(status: number, body: string) {
  const paths: string[] = [];
  const wire = await httpServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  return { wire, paths };
}

/** A router over ElevenLabs `a` (HTTP streaming) then an OpenAI-compatible speech server `b`. */
const twoProviders = (aUrl: string) =>
  routerOverBackup(
    { kind: 'elevenlabs', baseUrl: aUrl, apiKey: KEY, tts: { voices: { agent: 'el-voice' } } },
    ['tts'],
  );

describe('ElevenLabs HTTP 401: quota and unusual-activity answers are transient, other 401s are auth', () => {
  for (const [status, message] of [
    [
      'quota_exceeded',
      'This request exceeds your quota of 10000. You have 3 credits remaining, while 22 credits are required for this request.',
    ],
    ['detected_unusual_activity', 'Unusual activity detected. Free Tier usage disabled.'],
  ] as const) {
    it(`401 {"detail":{"status":"${status}"}}: served by the backup, retryable, not auth, breaker stays closed`, async () => {
      const a = await elevenLabs(401, JSON.stringify({ detail: { status, message } }));
      const { r, b, breakers } = await twoProviders(a.wire.url);
      const error = await servedByBackup(r, 'tts');
      expect([
        error.status,
        error.providerCode,
        error.retryable,
        error.isAuthError,
        error.unknownModel,
      ]).toEqual([401, status, true, false, false]);
      expect(error.message).toBe(`Provider 'a' answered HTTP 401: ${message}`);
      expectChargedToA(r, breakers, 'tts');
      // Still tried first on the next call: the limit may have passed.
      await servedByBackup(r, 'tts');
      expect(a.paths).toEqual([
        '/v1/text-to-speech/el-voice/stream?output_format=pcm_24000',
        '/v1/text-to-speech/el-voice/stream?output_format=pcm_24000',
      ]);
      expect(b.hits).toBe(2);
    });
  }

  for (const [name, body] of [
    [
      '{"detail":{"status":"invalid_api_key"}}',
      JSON.stringify({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } }),
    ],
    [
      '{"detail":{"status":"missing_permissions"}}',
      JSON.stringify({
        detail: {
          status: 'missing_permissions',
          message: 'The API key you used is missing the permission text_to_speech',
        },
      }),
    ],
    ['a body that is not JSON', 'Unauthorized'],
  ] as const) {
    it(`401 with ${name}: served by the backup, not retryable, auth, breaker open as misconfigured`, async () => {
      const a = await elevenLabs(401, body);
      const { r, b, breakers } = await twoProviders(a.wire.url);
      const error = await servedByBackup(r, 'tts');
      expect([error.status, error.retryable, error.isAuthError]).toEqual([401, false, true]);
      await expectOpenedAsMisconfigured(r, breakers, 'tts');
      expect([a.wire.hits, b.hits]).toEqual([1, 2]);
    });
  }
});
