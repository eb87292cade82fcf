/**
 * A key's middle or end echoed by a server: a provider that strips a vendor prefix (`dg_`,
 * `xi_`, `sk-`) before quoting the key it refused, or shows its last characters, put most of the
 * key in errors and router events. Every run of 8+ characters of a key standing as a word of
 * its own, and every run of 16+ characters wherever it stands, is redacted; the last 4
 * characters a dashboard shows and a provider name stay. Servers speak the wire on their own
 * (node:http and ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { createErrorRedactor, redactText } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router, wsServer } from './wire/servers.js';

/** 35 characters each; written in parts so that no key-shaped literal is in the tree. */
const DG_KEY = `${'dg_'}7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e`;
const XI_KEY = `${'xi_'}4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a`;
const SK_KEY = `${'sk-'}2e9c7a5f3d1b0e8c6a4f2d0b9e7c5a3f`;

/** The longest run (8 characters or more) of `key` found in `text`, or 0. */
function leaked(text: string, key: string): number {
  let longest = 0;
  for (let i = 0; i + 8 <= key.length; i++)
    for (let n = key.length - i; n >= 8 && n > longest; n--)
      if (text.includes(key.slice(i, i + n))) longest = n;
  return longest;
}

describe('redactText: a piece of a key from its middle or end', () => {
  const cases: Array<[string, string]> = [
    [`DATA-0000 key ${DG_KEY.slice(3)} not allowed`, 'DATA-0000 key [redacted] not allowed'],
    [`unknown key ...${DG_KEY.slice(3)}`, 'unknown key ...[redacted]'],
    [`key "${DG_KEY.slice(10, 22)}" refused`, 'key "[redacted]" refused'],
    [`key ****${DG_KEY.slice(-8)}`, 'key ****[redacted]'],
    // 16 characters or more go also inside a longer word.
    [`token=Q${DG_KEY.slice(5, 25)}Q.`, 'token=Q[redacted]Q.'],
  ];
  for (const [input, output] of cases)
    it(JSON.stringify(input), () => {
      expect(redactText(input, [DG_KEY])).toBe(output);
    });

  it('stays: the last 4 to 7 characters, a run under 16 inside a longer word, a provider name', () => {
    for (const text of [
      `key ...${DG_KEY.slice(-4)} refused`,
      `key ...${DG_KEY.slice(-7)} refused`,
      `Q${DG_KEY.slice(5, 20)}Q is another word`,
    ])
      expect(redactText(text, [DG_KEY])).toBe(text);
    // A provider name that is a piece of the key stays in the router's messages.
    const key = `${'acme'}-gateway-east-7f3k9q2m`;
    const error = createErrorRedactor(
      [key],
      ['gateway-east'],
    )(
      new ProviderError("Provider 'gateway-east' answered HTTP 401: key east-7f3k9q2m refused", {
        provider: 'gateway-east',
      }),
    );
    expect(error.message).toBe("Provider 'gateway-east' answered HTTP 401: key [redacted] refused");
  });
});

const PCM16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;

/** The first attempt's error of a failed call, and everything the call left to read. */
function attemptError(error: unknown): { cause: ProviderError; all: string } {
  const cause = (
    error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
  ) as ProviderError;
  expect(cause).toBeInstanceOf(ProviderError);
  return { cause, all: `${(error as Error).message}${JSON.stringify(error)}${String(cause.stack)}` };
}

describe('a key echoed without its vendor prefix over the wire is never shown', () => {
  it('Deepgram close 1008 with the key after "dg_" in the reason', async () => {
    const server = await wsServer((ws, req) => {
      const key = String(req.headers.authorization).slice('Token '.length);
      ws.on('message', () => ws.close(1008, `DATA-0000 key ${key.slice(3)} not allowed`));
    });
    const r = router({
      providers: { dg: { kind: 'deepgram', baseUrl: server.url, apiKey: DG_KEY, stt: { model: 'nova-3' } } },
      routes: { stt: { providers: ['dg'], strategy: 'priority' } },
    });
    const events: unknown[] = [];
    r.on('attempt', (e) => events.push(e));
    const audio = (async function* () {
      yield new Uint8Array(3200);
    })();
    const { error } = await drain(r.stt({ audio, format: PCM16K }));
    const { cause, all } = attemptError(error);
    expect(cause.status).toBe(1008);
    expect(cause.message.endsWith(': DATA-0000 key [redacted] not allowed')).toBe(true);
    expect(leaked(`${all}${JSON.stringify(events)}${JSON.stringify(r.stats())}`, DG_KEY)).toBe(0);
    await r.close();
  });

  it('ElevenLabs stream-input close 4000 with the key after "xi_" in the reason', async () => {
    const server = await wsServer((ws, req) => {
      const key = String(req.headers['xi-api-key']);
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { text?: string };
        if (message.text?.trim()) ws.close(4000, `unknown key ...${key.slice(3)}`);
      });
    });
    const r = router({
      providers: {
        el: {
          kind: 'elevenlabs',
          baseUrl: server.url,
          apiKey: XI_KEY,
          tts: { voices: { agent: 'v' }, transport: 'websocket' },
        },
      },
      routes: { tts: { providers: ['el'], strategy: 'priority' } },
    });
    const { error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K }));
    const { cause, all } = attemptError(error);
    expect(cause.message.endsWith(': unknown key ...[redacted]')).toBe(true);
    expect(leaked(all, XI_KEY)).toBe(0);
    await r.close();
  });

  it('OpenAI-compatible HTTP 401 body quoting the key after "sk-"', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      const key = String(req.headers.authorization).slice('Bearer sk-'.length);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' } }),
      );
    });
    const r = router({
      providers: {
        oa: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          apiKey: SK_KEY,
          tts: { voices: { agent: 'v' }, responseFormat: 'pcm' },
        },
      },
      routes: { tts: { providers: ['oa'], strategy: 'priority' } },
    });
    const { error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K }));
    const { cause, all } = attemptError(error);
    expect(cause.status).toBe(401);
    expect(cause.message).toContain('Incorrect API key provided: [redacted]');
    expect(leaked(all, SK_KEY)).toBe(0);
    await r.close();
  });
});
