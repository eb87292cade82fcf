/**
 * A secret in the query string of a configured `baseUrl` (`?api-version=...&api-key=...`, as
 * Azure-style gateways take it; the query is kept on every request) never appears in an error,
 * even when the server echoes the request URL. The values of credential-named parameters (the
 * one rule for header and parameter names) and key-shaped values under any name are secrets;
 * other parameters (`api-version`) stay readable. The server speaks HTTP on its own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { collectSecretLiterals, urlSecrets } from '../../src/config/redact.js';
import { AllProvidersFailedError, type ConfigError, ProviderError, parseConfig } from '../../src/index.js';
import { configErrorOf } from '../config/helpers.js';
import { drain, httpServer, router } from './wire/servers.js';

/** Made-up secrets, written in parts so that no key-shaped literal is in the tree. */
const QS_KEY = `qsSECRET${'0123456789abcdef'}`;
const SIG = `sv=2024&sig=${'AbCdEf0123456789'}%2Bzz%3D`;
const SHAPED = `${'sk-'}proj${'A1b2C3d4E5f6G7h8I9'}`;

/** The message of the attempt's error, and everything the thrown error holds as text. */
async function echoedUrlError(query: string) {
  const server = await httpServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `failed ${req.url}` } }));
  });
  const { error } = await drain(
    router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}?${query}`,
          apiKey: 'k-123456789',
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    }).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
  );
  expect(error).toBeInstanceOf(AllProvidersFailedError);
  const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
  expect(cause).toBeInstanceOf(ProviderError);
  return {
    message: cause.message,
    all: `${(error as Error).message}${String((error as Error).stack)}${JSON.stringify(error)}${cause.stack}`,
  };
}

describe('a secret in the baseUrl query string', () => {
  it('api-key: the echoed URL shows [redacted] in its place; api-version stays', async () => {
    const { message, all } = await echoedUrlError(`api-version=2024-10-21&api-key=${QS_KEY}`);
    expect(message).toBe(
      "Provider 'a' answered HTTP 500: failed /chat/completions?api-version=2024-10-21&api-key=[redacted]",
    );
    expect(all).not.toContain('qsSECRET');
  });

  it('sig (as written, percent-encoded) and a key-shaped value under an unrelated name', async () => {
    const { message, all } = await echoedUrlError(`${SIG}&deployment=${SHAPED}`);
    expect(message).toBe(
      "Provider 'a' answered HTTP 500: failed /chat/completions?sv=2024&sig=[redacted]&deployment=[redacted]",
    );
    expect(all).not.toContain('AbCdEf0123');
    expect(all).not.toContain('A1b2C3d4');
  });

  it('urlSecrets: credential names and key shapes, decoded and as written; nothing else', () => {
    expect(
      urlSecrets(
        `https://gw.example/v1?api-version=2024-10-21&key=${QS_KEY}&code=abcdef12&access_token=t0k%2Ben12&model=gpt-4o-mini&x=${SHAPED}`,
      ),
    ).toEqual([QS_KEY, 'abcdef12', 't0k%2Ben12', 't0k+en12', SHAPED]);
    expect(urlSecrets('https://user:p%40ssw0rd@gw.example/v1')).toEqual(['p%40ssw0rd', 'p@ssw0rd']);
    expect(urlSecrets('https://gw.example/v1?api-version=2024-10-21&model=m')).toEqual([]);
    expect(urlSecrets('not a url ?token=abcdefgh')).toEqual([]);
    // A bad % escape: the value as written (and its encoding, as a client would send it).
    expect(urlSecrets('https://gw.example/v1?api-key=abc%zz123456')).toEqual([
      'abc%zz123456',
      'abc%25zz123456',
    ]);
    expect(
      collectSecretLiterals({ providers: { a: { baseUrl: `https://gw.example/v1?token=${QS_KEY}` } } }),
    ).toEqual([QS_KEY]);
  });

  it('a ConfigError never prints it (the URL pasted as a route entry)', () => {
    const url = `https://gw.example/v1?api-version=2024-10-21&api-key=${QS_KEY}`;
    const e: ConfigError = configErrorOf(() =>
      parseConfig(
        {
          providers: { a: { kind: 'openai-compatible', baseUrl: url, chat: { models: { fast: 'm' } } } },
          routes: { chat: { providers: [url] } },
        } as never,
        { env: {} },
      ),
    );
    expect(e.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'routes.chat.providers.0: unknown provider "https://gw.example/v1?api-version=2024-10-21&api-key=[redacted]"; the config has "a"',
    ]);
    expect(`${e.message}${e.stack}${JSON.stringify(e)}`).not.toContain('qsSECRET');
  });
});
