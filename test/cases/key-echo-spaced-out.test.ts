/**
 * A provider echoing the API key spelled out, with an ordinary space (or another single
 * separator) between its characters (`s k - t e s t ...`), showed the key to anyone reading the
 * error. The redactor now reads such runs with their separators taken out; ordinary prose,
 * including single-letter words and spelled-out text that is no secret, is never changed.
 * Servers speak the wire on their own (loopback).
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createErrorRedactor, redactText, secretForms } from '../../src/errors/redact.js';
import { drain, httpServer, readBody, router, wsServer } from './wire/servers.js';

/** The provider's key, built at run time. */
const KEY = ['sk', 'test', 'Spaced9Out', '4567'].join('-');

const SEPARATORS: Record<string, string> = {
  space: ' ',
  'no-break space': '\u00a0',
  tab: '\t',
  dot: '.',
  comma: ',',
  'vertical bar': '|',
  slash: '/',
  underscore: '_',
  hyphen: '-',
  'middle dot': '\u00b7',
};

const spell = (separator: string, text = KEY) => [...text].join(separator);

/** Everything the caller can see of a failed call and its events, every separator taken out. */
function readable(error: unknown, events: unknown[]): string {
  const seen = [
    (error as Error).message,
    (error as Error).stack,
    JSON.stringify(error),
    inspect(error, { depth: 20 }),
    ...events.map((event) => `${inspect(event, { depth: 20 })}${JSON.stringify(event)}`),
  ].join('\n');
  return seen.replace(/[\s\u00a0.,|/_\u00b7]/g, '').replace(/-(?=-)/g, '');
}

function attemptMessage(error: Error): string {
  return (error as { attempts?: Array<{ error: Error }> }).attempts?.[0]?.error.message ?? error.message;
}

async function chatFailure(body: string) {
  const server = await httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(401, { 'content-type': 'application/json' }).end(body);
  });
  const r = router({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: server.url, apiKey: KEY, chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['a'] } },
  });
  const events: unknown[] = [];
  r.on('error', (event) => events.push(event));
  const { error } = await drain(r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }));
  expect(error).toBeInstanceOf(Error);
  return { error: error as Error, events };
}

describe('a key echoed spelled out, one separator between its characters, is redacted', () => {
  for (const [name, separator] of Object.entries(SEPARATORS)) {
    it(`HTTP 401 JSON error, separated by: ${name}`, async () => {
      const { error, events } = await chatFailure(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${spell(separator)}. Check it.` } }),
      );
      expect(readable(error, events)).not.toContain(KEY.replaceAll('-', ''));
      expect(attemptMessage(error)).toBe(
        "Provider 'a' answered HTTP 401: Incorrect API key provided: [redacted]. Check it.",
      );
    });
  }

  it('a WebSocket close reason spelling the key with spaces', async () => {
    const server = await wsServer((ws) => ws.close(4001, `bad key ${spell(' ')}`));
    const r = router({
      providers: { a: { kind: 'deepgram', baseUrl: server.url, apiKey: KEY, stt: { model: 'nova-3' } } },
      routes: { stt: { providers: ['a'] } },
    });
    async function* audio() {
      yield new Uint8Array(3200);
    }
    const { error } = await drain(
      r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } }),
    );
    expect(attemptMessage(error as Error)).toBe(
      "Provider 'a' closed the WebSocket with code 4001: bad key [redacted]",
    );
  });

  it('a spelled-out cut start (8+ characters) and a spelled-out key in any letter case', () => {
    const forms = secretForms([KEY]);
    expect(redactText(`key ${spell(' ', KEY.slice(0, 10))}... is wrong`, forms)).toBe(
      'key [redacted]... is wrong',
    );
    expect(redactText(`(${spell(' ', KEY.toLowerCase())})`, forms)).toBe('([redacted])');
  });

  it('the error redactor of a router does it too (message and cause)', () => {
    const redact = createErrorRedactor([KEY], ['a']);
    const error = redact(new Error(`echo: ${spell(' ')}`, { cause: new Error(spell('.')) }));
    expect([error.message, (error.cause as Error).message]).toEqual(['echo: [redacted]', '[redacted]']);
  });
});

describe('ordinary text is never changed', () => {
  const forms = secretForms([KEY]);
  const redact = createErrorRedactor([KEY], ['a']);
  it.each([
    'Press 1 2 3 4 5 6 7 8 9 then # to confirm.',
    'Options: a b c d e f g h i j k l m n o p.',
    'I saw a b-side at s k - t e s t in v.1.2.3.4.5.6.7.8 today.',
    // The key's start, spelled out, but only 7 characters of it: says nothing of the key.
    `It starts ${spell(' ', KEY.slice(0, 7))} and that is all.`,
    // Spelled out, 8+ characters, but not the key's.
    `Spell it: ${spell(' ', 'sk-best-Spaced9Ou')} please.`,
    'Grades: A, B, C, D, E, F, G and H; routes a/b/c/d/e/f/g/h.',
    'Spelled: N. A. S. A. and U.S.A.; the I-T-A-L-I-A-N way, x | y | z.',
  ])('%s', (text) => {
    expect(redactText(text, forms)).toBe(text);
    expect(redact(new Error(text)).message).toBe(text);
  });
});
