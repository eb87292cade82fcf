/**
 * A provider may echo the configured key with only some of its characters escaped, or escaped
 * in a way none of the key's whole encoded forms matches: `-` alone percent-encoded
 * (`correct%2DHorse%2D...`, as an encoder that escapes it writes it), the key percent-encoded
 * twice (`%2563%256F...`, a gateway that encodes an encoded value), `-` alone as an HTML
 * reference (`&#45;`, `&#x2d;`, `&hyphen;`) or a typographic non-breaking hyphen (U+2011), C-style
 * `\xHH` escapes, hex bytes joined by colons (`63:6f:72:...`), `0x` bytes or decimal bytes
 * separated by spaces only (Go's `fmt` of a `[]byte`: `[99 111 ...]`), or the key wrapped by a
 * JSON `\n`. Each reads as the key (or decodes to it in one step), and each reached the caller's
 * error in full: the words between the escapes were too short to be redacted as pieces of the
 * key. The redactor now also matches on the text with those escapes decoded, and reads byte lists
 * separated by white space and hex joined by colons. The server speaks HTTP on its own.
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
const hex = (b: number) => b.toString(16).padStart(2, '0');

/** Every form under test -> how the provider writes the key. */
const FORMS: Record<string, string> = {
  "'-' alone percent-encoded": KEY.replaceAll('-', '%2D'),
  "'-' alone percent-encoded, lower-case hex": KEY.replaceAll('-', '%2d'),
  'every other character percent-encoded': [...KEY]
    .map((c, i) => (i % 2 ? `%${hex(c.charCodeAt(0))}` : c))
    .join(''),
  'percent-encoded twice': BYTES.map((b) => `%25${hex(b).toUpperCase()}`).join(''),
  "'-' alone as an HTML decimal reference": KEY.replaceAll('-', '&#45;'),
  "'-' alone as an HTML hex reference": KEY.replaceAll('-', '&#x2d;'),
  "'-' alone as &hyphen;": KEY.replaceAll('-', '&hyphen;'),
  'non-breaking hyphens (U+2011)': KEY.replaceAll('-', '\u2011'),
  'C-style \\x escapes': BYTES.map((b) => `\\x${hex(b)}`).join(''),
  'hex bytes joined by colons': BYTES.map(hex).join(':'),
  '0x bytes separated by spaces': BYTES.map((b) => `0x${hex(b)}`).join(' '),
  "Go's []byte (decimal bytes separated by spaces)": `[${BYTES.join(' ')}]`,
  'wrapped by a JSON \\n': `${KEY.slice(0, 9)}\n${KEY.slice(9, 18)}\n${KEY.slice(18)}`,
};

/** Undoes each encoding, so the check is "can the key be read back from what the caller got". */
function decodings(text: string): string[] {
  const percent = (t: string) =>
    t.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  return [
    text,
    percent(text),
    percent(percent(text)),
    text.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d))),
    text.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    text.replaceAll('&hyphen;', '-').replaceAll('\u2011', '-'),
    text.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    text.replace(/(?:(?:0x)?[0-9a-f]{2}[ :])+(?:0x)?[0-9a-f]{2}/gi, (m) =>
      Buffer.from(m.replace(/0x|[ :]/gi, ''), 'hex').toString('latin1'),
    ),
    text.replace(/\d+(?: \d+)+/g, (list) => Buffer.from(list.split(' ').map(Number)).toString('latin1')),
    text.replace(/\\n|\n/g, ''),
  ].map((t) => t.toLowerCase());
}

function expectNoKey(seen: string): void {
  for (const decoded of decodings(seen)) {
    expect(decoded).not.toContain(KEY.toLowerCase());
    // Nor the key's words between its escapes.
    expect(decoded).not.toMatch(/battery.?.?.?staple/);
  }
}

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
    ...events.map((event) => `${inspect(event, { depth: 20 })}${JSON.stringify(event)}`),
  ].join('\n');
  return { error: e, seen };
}

/** The first attempt's error message of an AllProvidersFailedError, or the error's own. */
function attemptMessage(error: Error): string {
  const attempts = (error as { attempts?: Array<{ error: Error }> }).attempts;
  return attempts?.[0]?.error.message ?? error.message;
}

/** How a form reads once redacted, where the text around the key is not only `[redacted]`. */
const REDACTED: Record<string, string> = {
  "Go's []byte (decimal bytes separated by spaces)": '[[redacted]]',
  // Each part stands as a word once the line breaks read as spaces.
  'wrapped by a JSON \\n': '[redacted] [redacted] [redacted]',
};

describe('a key echoed partly escaped is redacted', () => {
  it.each(Object.entries(FORMS))('HTTP 401 with a JSON error echoing it: %s', async (name, echoed) => {
    reply = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${echoed}.`, type: 'auth' } }));
    };
    const { error, seen } = await failure();
    expectNoKey(seen);
    expect(attemptMessage(error)).toBe(
      `Provider 'a' answered HTTP 401: Incorrect API key provided: ${REDACTED[name] ?? '[redacted]'}.`,
    );
  });

  it.each(Object.entries(FORMS))('an in-band SSE error after output started: %s', async (_name, echoed) => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}\n\n');
      res.end(`data: ${JSON.stringify({ error: { message: `key ${echoed} was revoked` } })}\n\n`);
    };
    const { error, seen } = await failure();
    expect(error.name).toBe('MidStreamError');
    expectNoKey(seen);
  });
});

describe('what is not a key stays as it was written', () => {
  const forms = secretForms([KEY]);
  it.each([
    ['a URL with escapes', 'see https://example.com/a%2Fb?q=%7Bx%7D&amp;y=1 for help'],
    ['HTML references', 'quota &#8212; 5 &lt; 6 &#x2d; retry'],
    ['a JSON text with line breaks', '{"detail":"line one\\nline two\\tend"}'],
    ['numbers separated by spaces', 'tried 3 4 5 6 7 8 9 10 times, 200 OK'],
    ['hex joined by colons', 'fingerprint 3a:4b:5c:6d:7e:8f:90:a1'],
    ['C-style escapes', 'bytes \\x00\\x01\\x41\\x42 read'],
  ])('%s', (_name, text) => {
    expect(redactText(text, forms)).toBe(text);
  });
});
