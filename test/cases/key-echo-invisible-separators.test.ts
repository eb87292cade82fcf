/**
 * A provider echoing the API key with characters that show nothing between its characters
 * (zero-width spaces, soft hyphens, a word joiner, BOMs, direction marks; in HTML `&shy;`,
 * `&#8203;` or `<wbr>`; in JSON their `\uXXXX` escapes) showed the key to anyone reading the
 * error: it reads as the key, and copying it gives the key. The redactor now matches secrets on
 * the text without those characters, wherever it reads (HTTP error bodies, in-band SSE errors,
 * WebSocket close reasons). Servers speak the wire on their own (loopback).
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { redactText, secretForms } from '../../src/errors/redact.js';
import type { Router } from '../../src/index.js';
import { chatChunk, drain, httpServer, readBody, router, sseFrames, wsServer } from './wire/servers.js';

/** The provider's key, built at run time. */
const KEY = ['sk', 'proj', 'Invisible7Wall', '0123'].join('-');

/** How each server writes the key: its characters joined by the separator. */
const SEPARATORS: Record<string, string> = {
  'zero-width space U+200B': '\u200b',
  'soft hyphen U+00AD': '\u00ad',
  'word joiner U+2060': '\u2060',
  'zero-width no-break space (BOM) U+FEFF': '\ufeff',
  'left-to-right mark U+200E': '\u200e',
  'zero-width joiner U+200D': '\u200d',
};
const HTML_SEPARATORS: Record<string, string> = {
  '&shy;': '&shy;',
  '&#8203;': '&#8203;',
  '&#x200B;': '&#x200B;',
  '<wbr>': '<wbr>',
};

const spread = (separator: string) => [...KEY].join(separator);

/** Everything the caller can see of a failed call and the router's events, invisible characters and HTML hints removed. */
function readable(error: unknown, events: unknown[]): string {
  const seen = [
    (error as Error).message,
    (error as Error).stack,
    JSON.stringify(error),
    inspect(error, { depth: 20 }),
    ...events.map((event) => `${inspect(event, { depth: 20 })}${JSON.stringify(event)}`),
  ].join('\n');
  return seen
    .replace(/[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '')
    .replace(/\\u(?:00ad|200[b-f]|2060|feff)/gi, '')
    .replace(/&shy;|&#8203;|&#x200b;|<wbr>/gi, '');
}

/** A chat router over one OpenAI-compatible provider at `url` with KEY, collecting its events. */
function chatRouter(url: string): { r: Router; events: unknown[] } {
  const r = router({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: url, apiKey: KEY, chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['a'] } },
  });
  const events: unknown[] = [];
  r.on('error', (event) => events.push(event));
  r.on('fallback', (event) => events.push(event));
  return { r, events };
}

async function chatFailure(answer: (res: ServerResponse) => void) {
  const server = await httpServer(async (req, res) => {
    await readBody(req);
    answer(res);
  });
  const { r, events } = chatRouter(server.url);
  const { error } = await drain(r.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }));
  expect(error).toBeInstanceOf(Error);
  return { error: error as Error, events };
}

function attemptMessage(error: Error): string {
  return (error as { attempts?: Array<{ error: Error }> }).attempts?.[0]?.error.message ?? error.message;
}

describe('a key echoed with invisible characters between its characters is redacted', () => {
  for (const [name, separator] of Object.entries(SEPARATORS)) {
    it(`HTTP 401 JSON error, written: ${name}`, async () => {
      const { error, events } = await chatFailure((res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${spread(separator)}.` } }));
      });
      expect(readable(error, events)).not.toContain(KEY);
      expect(attemptMessage(error)).toBe(
        "Provider 'a' answered HTTP 401: Incorrect API key provided: [redacted].",
      );
    });

    it(`HTTP 401 JSON error, as \\u escapes (JSON.stringify with ASCII only): ${name}`, async () => {
      const escaped = `\\u${separator.charCodeAt(0).toString(16).padStart(4, '0')}`;
      const { error, events } = await chatFailure((res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(`{"error":{"message":"Incorrect API key provided: ${[...KEY].join(escaped)}."}}`);
      });
      expect(readable(error, events)).not.toContain(KEY);
      expect(attemptMessage(error)).toBe(
        "Provider 'a' answered HTTP 401: Incorrect API key provided: [redacted].",
      );
    });

    it(`in-band SSE error after output: ${name}`, async () => {
      const { error, events } = await chatFailure((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          sseFrames([
            chatChunk({ content: 'Hello' }),
            { error: { message: `key ${spread(separator)} was revoked`, code: 'invalid_api_key' } },
          ]),
        );
      });
      expect(error.name).toBe('MidStreamError');
      expect(readable(error, events)).not.toContain(KEY);
    });
  }

  for (const [name, hint] of Object.entries(HTML_SEPARATORS)) {
    it(`HTTP 403 HTML page letting the key wrap with ${name}`, async () => {
      const { error, events } = await chatFailure((res) => {
        res.writeHead(403, { 'content-type': 'text/html' });
        res.end(`<p>Key <code>${spread(hint)}</code> is not allowed here.</p>`);
      });
      expect(readable(error, events)).not.toContain(KEY);
      expect(attemptMessage(error)).toBe(
        "Provider 'a' answered HTTP 403: <p>Key <code>[redacted]</code> is not allowed here.</p>",
      );
    });
  }

  it('a WebSocket close reason with soft hyphens between the characters', async () => {
    const server = await wsServer((ws) => ws.close(4001, `bad key ${spread('\u00ad')}`));
    const r = router({
      providers: { a: { kind: 'deepgram', baseUrl: server.url, apiKey: KEY, stt: { model: 'nova-3' } } },
      routes: { stt: { providers: ['a'] } },
    });
    const events: unknown[] = [];
    r.on('error', (event) => events.push(event));
    async function* audio() {
      yield new Uint8Array(3200);
    }
    const { error } = await drain(
      r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(readable(error, events)).not.toContain(KEY);
    expect(attemptMessage(error as Error)).toBe(
      "Provider 'a' closed the WebSocket with code 4001: bad key [redacted]",
    );
  });

  it('text without a secret keeps its invisible characters as they were', () => {
    const forms = secretForms([KEY]);
    const text = 'family: 👨\u200d👩\u200d👧 and a soft\u00adhyphen';
    expect(redactText(text, forms)).toBe(text);
  });
});
