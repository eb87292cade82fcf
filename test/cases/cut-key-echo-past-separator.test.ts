/**
 * A cut key echoed by a server, for a key that holds `/` or `+` (an AWS secret access key, a
 * base64 gateway token): the echoed start runs past the separator (`wJalrXUtnFEMI/K7MDEN`). The
 * redactor also knows the key's encoded forms (URL-encoded `%2F`, JSON-escaped `\/`), whose starts
 * match the echo only up to the separator; the whole echoed start must go, not only the part
 * before the separator (which left `/K7MDEN`, characters of the key, in the message). The same
 * holds for an echo in one of the encoded forms, cut past its separator. Servers speak the wire
 * on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { createErrorRedactor } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

/** 40 characters, in the shape of an AWS secret access key; written in parts so that no key-shaped literal is in the tree. */
const SLASH_KEY = `${'wJalrXUtnFEMI'}/K7MDENG/${'bPxRfiCY'}EXAMPLEKEY1`;
/** A base64 token with `+`. */
const PLUS_KEY = `${'Zm9vYmFyYmF6'}+q1W2e3R4t5Y6u7I8o9P0`;

/** The longest run (6 characters or more) of `key` found in `text`, or 0. */
function leaked(text: string, key: string): number {
  for (let n = key.length; n >= 6; n--)
    for (let i = 0; i + n <= key.length; i++) if (text.includes(key.slice(i, i + n))) return n;
  return 0;
}

describe('cut key echo past a separator: the whole echoed start is redacted (createErrorRedactor)', () => {
  const cases: Array<[string, string, (key: string) => string, string]> = [
    ['cut after the first /', SLASH_KEY, (k) => `secret ${k.slice(0, 20)}`, 'secret [redacted]'],
    [
      'cut, then a full stop',
      SLASH_KEY,
      (k) => `key ${k.slice(0, 20)}. Check it`,
      'key [redacted]. Check it',
    ],
    ['cut with ...', SLASH_KEY, (k) => `key ${k.slice(0, 16)}... refused`, 'key [redacted]... refused'],
    ['cut in quotes', PLUS_KEY, (k) => `key "${k.slice(0, 18)}" refused`, 'key "[redacted]" refused'],
    [
      'URL-encoded, cut past %2F',
      SLASH_KEY,
      (k) => `GET /x?key=${encodeURIComponent(k).slice(0, 22)} 403`,
      'GET /x?key=[redacted] 403',
    ],
    [
      'JSON-escaped, cut past \\/',
      SLASH_KEY,
      (k) => `{"msg":"bad ${k.replaceAll('/', '\\/').slice(0, 21)}"}`,
      '{"msg":"bad [redacted]"}',
    ],
  ];
  for (const [what, key, echo, shown] of cases)
    it(what, () => {
      const error = createErrorRedactor([key])(new ProviderError(echo(key), { provider: 'a' }));
      expect(error.message).toBe(shown);
      expect(leaked(`${error.message}${String(error.stack)}`, key)).toBe(0);
    });

  it('stays: a start of the key that goes on as another word, and text beside an echo', () => {
    const redact = createErrorRedactor([SLASH_KEY]);
    expect(
      redact(new ProviderError(`${SLASH_KEY.slice(0, 12)}Z is another`, { provider: 'a' })).message,
    ).toBe(`${SLASH_KEY.slice(0, 12)}Z is another`);
    expect(redact(new ProviderError(`a/${SLASH_KEY.slice(0, 20)} /b`, { provider: 'a' })).message).toBe(
      'a/[redacted] /b',
    );
  });
});

describe('cut key echo past a separator over the wire', () => {
  for (const [what, key] of [
    ['a key with /', SLASH_KEY],
    ['a key with +', PLUS_KEY],
  ] as const)
    it(`HTTP 401 JSON error quoting the first 20 characters of ${what}`, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        const sent = String(req.headers.authorization).slice('Bearer '.length);
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `Invalid key ${sent.slice(0, 20)}`, type: 'auth' } }));
      });
      const { error } = await drain(
        router({
          providers: {
            a: {
              kind: 'openai-compatible',
              baseUrl: server.url,
              apiKey: key,
              chat: { models: { fast: 'm' } },
            },
          },
          routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
        }).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
      expect(cause).toBeInstanceOf(ProviderError);
      expect(cause.message).toBe("Provider 'a' answered HTTP 401: Invalid key [redacted]");
      const all = `${(error as Error).message}${JSON.stringify(error)}${String(cause.stack)}`;
      expect(leaked(all, key)).toBe(0);
    });
});
