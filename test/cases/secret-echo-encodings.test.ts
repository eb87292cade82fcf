/**
 * A provider may echo the configured API key in an encoding redaction did not know: every byte
 * percent-encoded (`%63%6F...`, upper- or lower-case hex), HTML character references (`&#99;`,
 * `&#x63;`), a Node Buffer's JSON or another byte array (`{"type":"Buffer","data":[99,...]}`,
 * any spacing), UTF-16 text (the key's characters with NULs between them), hex. The key could be
 * read back from the error's message, stack, JSON and the router's 'error' events. Each form is
 * now one of the secret's forms, computed once per router (errors/secret-forms.ts), and a byte
 * list is matched in any spacing. The server here speaks HTTP on its own: a 401 with a JSON
 * error, a text/plain 500, and an in-band SSE error after output started, each echoing the key.
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactText, secretForms } from '../../src/errors/redact.js';
import { createRouter, type Router } from '../../src/index.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

/** The provider's key, built at run time: words, so that only the configured secret's forms can catch it. */
const KEY = ['correct', 'Horse', 'battery', 'staple', '9'].join('-');
const BYTES = [...Buffer.from(KEY)];

/** Every form under test -> how the provider writes the key. */
const FORMS: Record<string, string> = {
  'percent-encoded bytes, upper-case hex': BYTES.map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
  'percent-encoded bytes, lower-case hex': BYTES.map((b) => `%${b.toString(16)}`).join(''),
  'HTML decimal references': [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'HTML hex references': [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
  'HTML hex references, upper-case': [...KEY]
    .map((c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`)
    .join(''),
  'Node Buffer JSON': JSON.stringify(Buffer.from(KEY)),
  'byte array with spaces': `[ ${BYTES.join(', ')} ]`,
  'byte array, one a line': JSON.stringify(BYTES, null, 2),
  'UTF-16LE text': Buffer.from(KEY, 'utf16le').toString('latin1'),
  'UTF-16BE text': Buffer.from(KEY, 'utf16le').swap16().toString('latin1'),
  'hex bytes, spaced': BYTES.map((b) => b.toString(16).padStart(2, '0')).join(' '),
};

/** Undoes each encoding, so the check is "can the key be read back from what the caller got". */
function decodings(text: string): string[] {
  return [
    text,
    text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    }),
    text.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d))),
    text.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    text.replace(/\d+(?:\s*,\s*\d+)+/g, (list) =>
      Buffer.from(list.split(',').map(Number)).toString('latin1'),
    ),
    text.replaceAll('\u0000', '').replaceAll('\\u0000', ''),
    text.replace(/\b[0-9a-f]{2}(?: [0-9a-f]{2})+\b/g, (hex) =>
      Buffer.from(hex.replaceAll(' ', ''), 'hex').toString(),
    ),
  ].map((t) => t.toLowerCase());
}

function expectNoKey(seen: string, echoed: string): void {
  expect(seen).not.toContain(echoed);
  for (const decoded of decodings(seen)) expect(decoded).not.toContain(KEY.toLowerCase());
}

/** What the server answers next. */
let reply: (res: ServerResponse) => void = () => {};
let server: LoopbackServer;
let router: Router;
const events: unknown[] = [];

beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => reply(res));
  router = createRouter({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${server.origin}/v1`,
        apiKey: KEY,
        chat: { models: { fast: 'm' } },
      },
    },
    routes: { chat: { providers: ['a'] } },
  });
  router.on('error', (event) => events.push(event));
});
afterAll(async () => {
  await router.close();
  await server.close();
});

/** Runs one chat call; everything the caller can see of its failure: message, stack, JSON, inspect, events. */
async function failure(): Promise<{ error: Error; seen: string }> {
  events.length = 0;
  let error: unknown;
  try {
    for await (const _ of router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' })) {
      // drain
    }
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(Error);
  const e = error as Error;
  expect(events.length).toBeGreaterThan(0);
  const seen = [
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 20 }),
    String(e),
    ...events.map((event) => `${inspect(event, { depth: 20 })}${JSON.stringify(event)}`),
  ].join('\n');
  return { error: e, seen };
}

/** The first attempt's error message of an AllProvidersFailedError, or the error's own. */
function attemptMessage(error: Error): string {
  const attempts = (error as { attempts?: Array<{ error: Error }> }).attempts;
  return attempts?.[0]?.error.message ?? error.message;
}

/** How each form reads in the message once redacted (the text around the key stays). */
const REDACTED: Record<string, string> = {
  'Node Buffer JSON': '{"type":"Buffer","data":[[redacted]]}',
  'byte array with spaces': '[ [redacted] ]',
  'byte array, one a line': '[\n  [redacted]\n]',
  // The NUL after the key's last character (little-endian) or before its first (big-endian) is no part of the key.
  'UTF-16LE text': '[redacted]\u0000',
  'UTF-16BE text': '\u0000[redacted]',
};

describe('a key echoed encoded is redacted everywhere the caller looks', () => {
  it.each(Object.entries(FORMS))('HTTP 401 with a JSON error echoing it: %s', async (name, echoed) => {
    reply = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `Incorrect API key provided: ${echoed}.`, type: 'invalid_request_error' },
        }),
      );
    };
    const { error, seen } = await failure();
    expectNoKey(seen, echoed);
    expect(attemptMessage(error)).toBe(
      `Provider 'a' answered HTTP 401: Incorrect API key provided: ${REDACTED[name] ?? '[redacted]'}.`,
    );
  });

  it.each(Object.entries(FORMS))('HTTP 500 with a text/plain body echoing it: %s', async (name, echoed) => {
    reply = (res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`upstream refused key ${echoed} (try again)`);
    };
    const { error, seen } = await failure();
    expectNoKey(seen, echoed);
    // A text body is shown as an excerpt: white space collapsed.
    const shown = (REDACTED[name] ?? '[redacted]').replace(/\s+/g, ' ');
    expect(attemptMessage(error)).toBe(
      `Provider 'a' answered HTTP 500: upstream refused key ${shown} (try again)`,
    );
  });

  it.each(Object.entries(FORMS))(
    'an in-band SSE error after output started, echoing it: %s',
    async (_name, echoed) => {
      reply = (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}\n\n');
        res.end(
          `data: ${JSON.stringify({ error: { message: `key ${echoed} was revoked`, code: 'invalid_api_key' } })}\n\n`,
        );
      };
      const { error, seen } = await failure();
      expect(error.name).toBe('MidStreamError');
      expectNoKey(seen, echoed);
    },
  );
});

describe('the encoded forms of a key', () => {
  it('are computed once per list of secrets: the same frozen array each time', () => {
    const forms = secretForms([KEY]);
    expect(secretForms([KEY])).toBe(forms);
    expect(Object.isFrozen(forms)).toBe(true);
    for (const echoed of [FORMS['percent-encoded bytes, upper-case hex'], FORMS['HTML decimal references']])
      expect(forms).toContain(echoed);
  });

  it('a start of an encoded key that a server cut is redacted too', () => {
    const forms = secretForms([KEY]);
    const percent = FORMS['percent-encoded bytes, upper-case hex'] as string;
    const html = FORMS['HTML decimal references'] as string;
    const buffer = FORMS['Node Buffer JSON'] as string;
    expect(redactText(`key ${percent.slice(0, 40)}\u2026 end`, forms)).toBe('key [redacted]\u2026 end');
    expect(redactText(`key ${html.slice(0, 40)}... end`, forms)).toBe('key [redacted]... end');
    expect(redactText(`${buffer.slice(0, 60)}\u2026`, forms)).toBe(
      '{"type":"Buffer","data":[[redacted]\u2026',
    );
  });

  it('byte lists that do not spell the key stay, and so do the numbers around it', () => {
    const forms = secretForms([KEY]);
    expect(redactText('retry in 1, 2, 3, 4, 5, 6 or 300, 400, 500, 600, 700, 800 ms', forms)).toBe(
      'retry in 1, 2, 3, 4, 5, 6 or 300, 400, 500, 600, 700, 800 ms',
    );
    expect(redactText(`[1, 2, ${BYTES.join(', ')}, 3]`, forms)).toBe('[1, 2, [redacted], 3]');
    // Hex numbers, and a list that ends a sentence.
    const hex = BYTES.map((b) => `0x${b.toString(16).toUpperCase()}`).join(', ');
    expect(redactText(`bytes ${hex}.`, forms)).toBe('bytes [redacted].');
    expect(redactText(`bytes ${BYTES.join(',\n')}.`, forms)).toBe('bytes [redacted].');
  });
});
