/**
 * A provider that echoes the key base64-encoded (alone, base64url, inside `user:key`, at any
 * byte offset) or decodes a `Basic` credential back to `user:password`: none of those forms
 * may reach an error, event or log. The server speaks HTTP on its own (node:http).
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, type ProviderError } from '../../src/index.js';
import { drain, httpServer, readBody, router } from '../cases/wire/servers.js';

const KEY = 'canary-key-b64-7f3e9c1d5b';
const PASSWORD = 'basic-pass-0c4e8a2f';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Every encoded form the server below echoes. */
const FORMS = [
  KEY,
  b64(KEY),
  b64url(KEY),
  b64(`user:${KEY}`),
  b64(`x=${KEY}&y=1`),
  b64(`ab${KEY}`),
  `user:${PASSWORD}`,
  PASSWORD,
  b64(`user:${PASSWORD}`),
];

describe('secrets echoed base64-encoded are redacted', () => {
  it('a 500 body holding the key in base64, base64url, user:key and at each byte offset', async () => {
    const server = await httpServer(async (req, res) => {
      await readBody(req);
      const auth = String(req.headers.authorization ?? req.headers['x-auth']);
      const token = auth.slice(auth.indexOf(' ') + 1);
      const decoded = auth.startsWith('Basic ') ? Buffer.from(token, 'base64').toString() : token;
      const body = [
        b64(token),
        b64url(token),
        b64(`user:${token}`),
        b64(`x=${token}&y=1`),
        b64(`ab${token}`),
        decoded,
      ];
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`echo ${body.join(' ')}`);
    });
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          apiKey: KEY,
          chat: { models: { m: 'x' } },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          headers: { 'x-auth': `Basic ${b64(`user:${PASSWORD}`)}` },
          chat: { models: { m: 'x' } },
        },
      },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    const events: unknown[] = [];
    for (const name of ['attempt', 'fallback', 'error'] as const) r.on(name, (e) => events.push(e));
    const { error } = await drain(r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(server.hits).toBe(2);
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const errors = (error as AllProvidersFailedError).attempts.map((a) => a.error as ProviderError);
    expect(errors.map((e) => [e.constructor.name, e.provider, e.status])).toEqual([
      ['ProviderError', 'a', 500],
      ['ProviderError', 'b', 500],
    ]);
    // What each provider echoed, with every encoded form of its secret replaced.
    expect(errors[0]?.message).toMatch(
      /^Provider 'a' answered HTTP 500: echo \[redacted\] \[redacted\] dXNlcjp\[redacted\] eD1\[redacted\]/,
    );
    expect(errors[1]?.message).toMatch(
      /^Provider 'b' answered HTTP 500: echo \[redacted\] \[redacted\] dXNlcjp\[redacted\]/,
    );
    const seen = inspect({ error, errors, events }, { depth: 12, showHidden: true });
    for (const form of FORMS) expect(seen, form).not.toContain(form);
  });
});
