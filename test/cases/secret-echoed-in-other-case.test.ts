/**
 * A mixed-case key echoed in another letter case: a server that lower-cases (or upper-cases)
 * the key it quotes, or an adapter that lower-cased an echoed Content-Type before putting it in
 * a message, let the key through a case-sensitive redactor (a lower-cased key differs from the
 * real one by one bit per letter). Secrets are matched in any letter case, in every form the
 * redactor knows; adapters print a Content-Type as it was sent. Servers speak the wire on their
 * own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { redactText, secretForms } from '../../src/errors/redact.js';
import {
  AllProvidersFailedError,
  ProtocolError,
  type ProviderConfig,
  ProviderError,
} from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

/** A mixed-case key, written in parts so that no key-shaped literal is in the tree. */
const KEY = `${'sk-proj-'}Q7fZk2LmW9xR4tYb8NcV3pHs6JdG1aKe`;

/** The first attempt's error of a failed call, and everything the call left to read. */
function attemptError(error: unknown): { cause: Error; all: string } {
  expect(error).toBeInstanceOf(AllProvidersFailedError);
  const cause = (error as AllProvidersFailedError).attempts[0]!.error as Error;
  return { cause, all: `${(error as Error).message}${JSON.stringify(error)}${String(cause.stack)}` };
}

/** Whether `text` holds `KEY` in any letter case. */
const holdsKey = (text: string) => text.toLowerCase().includes(KEY.toLowerCase());

describe('redactText: a secret in another letter case', () => {
  const cases: Array<[string, string]> = [
    [`key ${KEY.toLowerCase()} bad`, 'key [redacted] bad'],
    [`KEY ${KEY.toUpperCase()} BAD`, 'KEY [redacted] BAD'],
    // A cut start, a masked key and a piece without the vendor prefix, lower-cased.
    [`key ${KEY.slice(0, 14).toLowerCase()}... refused`, 'key [redacted]... refused'],
    [`key ${KEY.slice(0, 10).toLowerCase()}****${KEY.slice(-4).toLowerCase()}`, 'key [redacted]'],
    [`key ${KEY.slice(8).toLowerCase()} refused`, 'key [redacted] refused'],
  ];
  for (const [input, output] of cases)
    it(JSON.stringify(input), () => {
      expect(redactText(input, secretForms([KEY]))).toBe(output);
    });

  it('the URL-encoded form of a key holding a `/`, lower-cased by a proxy', () => {
    const secret = `${KEY}/Zz`;
    const echoed = `token=${encodeURIComponent(secret).toLowerCase()}`;
    expect(echoed).toContain('%2f');
    expect(redactText(echoed, secretForms([secret]))).toBe('token=[redacted]');
  });

  it('keeps the rest of the text in its own case', () => {
    expect(redactText(`Invalid Key: ${KEY.toLowerCase()} (Check It)`, [KEY])).toBe(
      'Invalid Key: [redacted] (Check It)',
    );
  });
});

describe('a key echoed in lower case over the wire is never shown', () => {
  it('OpenAI-compatible chat: HTTP 401 whose body quotes the key lower-cased', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      const key = String(req.headers.authorization).slice('Bearer '.length);
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`key ${key.toLowerCase()} bad`);
    });
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          apiKey: KEY,
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'], strategy: 'priority' } },
    });
    const events: unknown[] = [];
    r.on('attempt', (e) => events.push(e));
    const { error } = await drain(r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }));
    const { cause, all } = attemptError(error);
    expect(cause).toBeInstanceOf(ProviderError);
    expect(cause.message).toBe("Provider 'a' answered HTTP 401: key [redacted] bad");
    expect(holdsKey(`${all}${JSON.stringify(events)}`)).toBe(false);
    await r.close();
  });

  const adapters: Array<[string, ProviderConfig, string]> = [
    [
      'OpenAI-compatible /audio/speech',
      { kind: 'openai-compatible', baseUrl: '', apiKey: KEY, tts: { voices: { agent: 'v' } } },
      "Speech answer has Content-Type 'Text/Plain; token=[redacted]', not PCM or WAV",
    ],
    [
      'Deepgram /v1/speak',
      { kind: 'deepgram', baseUrl: '', apiKey: KEY, tts: { voices: { agent: 'v' } } },
      "Speak answer has Content-Type 'Text/Plain; token=[redacted]', not audio",
    ],
  ];
  for (const [name, config, message] of adapters)
    it(`${name}: a Content-Type echoing the key is printed as sent, and redacted`, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': `Text/Plain; token=${KEY}` }).end('hello');
      });
      const baseUrl = config.kind === 'openai-compatible' ? `${server.url}/v1` : server.url;
      const r = router({
        providers: { a: { ...config, baseUrl } as ProviderConfig },
        routes: { tts: { providers: ['a'], strategy: 'priority' } },
      });
      const { error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
      const { cause, all } = attemptError(error);
      expect(cause).toBeInstanceOf(ProtocolError);
      expect((cause as ProtocolError).retryable).toBe(true);
      expect(cause.message).toBe(message);
      expect(holdsKey(all)).toBe(false);
      await r.close();
    });
});
