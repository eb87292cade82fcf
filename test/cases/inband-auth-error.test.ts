/**
 * An auth failure reported in band: Cartesia's `{"type":"error","status_code":401}` message on
 * its TTS WebSocket, Anthropic's `authentication_error` event, an OpenAI-style
 * `invalid_api_key` error inside a 200 stream, and WebSocket closes 3000 / 4xxx whose reason
 * names a bad key. Each was charged as an ordinary failure, so a revoked key was tried again on
 * every call; the same 401 over HTTP opens the breaker at once. Now each is an auth error
 * (`isAuthError`), the breaker opens with reason `auth`, and the next call goes straight to the
 * backup. A quota or rate-limit text stays a transient failure. Servers speak the wire on their
 * own (ws and node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/index.js';
import { isAuthProviderKind } from '../../src/transport/classify.js';
import { closeError } from '../../src/transport/websocket-close.js';
import { answerPcm, drain, httpServer, pcmSignal, router, wsServer } from './wire/servers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const PCM = pcmSignal(2400, 24_000);

describe('isAuthProviderKind and closeError: which in-band failures are auth', () => {
  it('a 401 / 403 code or a type naming a bad key is auth; a quota, a rate limit or a bad request is not', () => {
    const auth: Array<[string | undefined, string | number | undefined]> = [
      [undefined, 401],
      [undefined, 403],
      ['authentication_error', undefined],
      ['permission_error', undefined],
      ['invalid_request_error', 'invalid_api_key'],
      [undefined, 'unauthorized'],
    ];
    const other: Array<[string | undefined, string | number | undefined]> = [
      [undefined, 429],
      [undefined, 500],
      ['invalid_request_error', undefined],
      ['rate_limit_error', undefined],
      [undefined, 'quota_exceeded_for_api_key'],
      ['overloaded_error', undefined],
    ];
    expect(auth.map(([t, c]) => isAuthProviderKind(t, c))).toEqual(auth.map(() => true));
    expect(other.map(([t, c]) => isAuthProviderKind(t, c))).toEqual(other.map(() => false));
  });

  it('closes 3000 / 3003, and 1008 / 4xxx with an auth reason, are auth; a quota reason or 4000 idle is not', () => {
    const of = (code: number, reason: string) => closeError('a', code, reason, {}).isAuthError;
    expect([
      of(3000, ''),
      of(3003, ''),
      of(1008, 'Invalid API key'),
      of(4001, 'unauthorized'),
      of(1008, 'quota exceeded for this API key'),
      of(4000, 'input timeout'),
      of(1011, 'invalid api key'),
    ]).toEqual([true, true, true, true, false, false, false]);
  });
});

/** A backup that answers every TTS request with PCM (OpenAI-compatible `/audio/speech`). */
async function backup() {
  let requests = 0;
  const wire = await httpServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => answerPcm(res, PCM));
  });
  return { url: `${wire.url}/v1`, requests: () => requests };
}

describe('an in-band auth failure opens the breaker at once', () => {
  it('Cartesia TTS WebSocket error message with status_code 401: breaker open (auth), next call goes to the backup', async () => {
    let messages = 0;
    const cartesia = await wsServer((ws) => {
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { context_id?: string; cancel?: boolean };
        if (message.cancel) return;
        messages++;
        ws.send(
          JSON.stringify({
            type: 'error',
            context_id: message.context_id,
            done: true,
            status_code: 401,
            title: 'Unauthorized',
            message: 'Invalid API key',
          }),
        );
      });
    });
    const b = await backup();
    const r = router({
      providers: {
        a: {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: 'test-key-a',
          tts: { voices: { agent: 'v' }, transport: 'websocket' },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: b.url,
          apiKey: 'test-key-b',
          tts: { voices: { agent: 'v' }, responseFormat: 'pcm' },
        },
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    const breakers: string[] = [];
    r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}:${e.reason}`));
    const stream = r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K });
    const first = await drain(stream);
    expect(first.error).toBe(undefined);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    const error = result.attempts[0]!.error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect([error.isAuthError, error.retryable, error.status]).toEqual([true, false, undefined]);
    expect(breakers).toEqual(['a:closed->open:auth']);
    for (let i = 0; i < 3; i++) {
      const next = r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K });
      await drain(next);
      expect((await next.result).attempts.map((a) => a.provider)).toEqual(['b']);
    }
    expect([messages, b.requests()]).toEqual([1, 4]);
    await r.close();
  });

  it("Anthropic's authentication_error event in a 200 stream: isAuthError, breaker open (auth)", async () => {
    const anthropic = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })}\n\n`,
      );
    });
    const r = router({
      providers: {
        a: {
          kind: 'anthropic',
          baseUrl: anthropic.url,
          apiKey: 'test-key-a',
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'], strategy: 'priority' } },
    });
    const breakers: string[] = [];
    r.on('breaker', (e) => breakers.push(`${e.provider}:${e.to}:${e.reason}`));
    const { error } = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }));
    const cause = (error as { attempts: Array<{ error: ProviderError }> }).attempts[0]!.error;
    expect([cause.isAuthError, cause.providerType]).toEqual([true, 'authentication_error']);
    expect(breakers).toEqual(['a:open:auth']);
    await r.close();
  });
});
