/**
 * A secret split by a cut: a provider echoes the API key in an error body, an in-stream error
 * event or a WebSocket close reason, and the text is cut (to the error excerpt's length, or by
 * the server to a close reason's 123 bytes). Secrets are redacted before any cut, and a key's
 * start left at a cut's edge (8 characters or more) is redacted too: no part of the key is ever
 * in an error. Servers speak the wire on their own (node:http and ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router, sseFrames, wsServer } from './wire/servers.js';

/** 160 characters, OpenAI-like. */
const KEY = `sk-proj-${'A1b2C3d4E5f6G7h8'.repeat(9)}ZZZZZZZZ`;

/** The longest start (8 characters or more) of KEY found in `text`, or 0. */
function leaked(text: string): number {
  for (let n = KEY.length; n >= 8; n--) if (text.includes(KEY.slice(0, n))) return n;
  return 0;
}

const chatConfig = (baseUrl: string) => ({
  providers: {
    a: { kind: 'openai-compatible' as const, baseUrl, apiKey: KEY, chat: { models: { fast: 'm' } } },
  },
  routes: { chat: { providers: ['a'], strategy: 'priority' as const, firstChunkTimeoutMs: false as const } },
});

/** Runs one chat() over a server that answers with `answer`; the attempt's error. */
async function chatError(answer: (auth: string) => { status: number; type: string; body: string }) {
  const server = await httpServer((req, res) => {
    req.resume();
    const { status, type, body } = answer(String(req.headers.authorization).slice('Bearer '.length));
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  const { error } = await drain(
    router(chatConfig(server.url)).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
  );
  // A retryable failure is wrapped in AllProvidersFailedError; a request error is thrown as is.
  const cause = (
    error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
  ) as ProviderError;
  expect(cause).toBeInstanceOf(ProviderError);
  return { all: (error as Error).message, cause };
}

describe('a secret split by a cut is never partly shown', () => {
  it('redactText: a key start of 8+ characters at the end, or before a closing …, is redacted; shorter starts and longer words are not', () => {
    expect(redactText(`bad key ${KEY.slice(0, 99)}…`, [KEY])).toBe('bad key [redacted]…');
    expect(redactText(`bad key ${KEY.slice(0, 8)}`, [KEY])).toBe('bad key [redacted]');
    expect(redactText(`bad key ${KEY.slice(0, 7)}`, [KEY])).toBe(`bad key ${KEY.slice(0, 7)}`);
    expect(redactText(`${KEY} and ${KEY.slice(0, 40)}…`, [KEY])).toBe('[redacted] and [redacted]…');
    // A start of fewer than 16 characters followed by more key characters is another word: it
    // stays; 16 or more characters of the key are redacted wherever they stand.
    expect(redactText(`${KEY.slice(0, 15)}Q then more`, [KEY])).toBe(`${KEY.slice(0, 15)}Q then more`);
    expect(redactText(`${KEY.slice(0, 20)}Q then more`, [KEY])).toBe('[redacted]Q then more');
  });

  for (const pad of [100, 150, 190, 198, 199, 200]) {
    it(`HTTP 500 text/plain echoing the key after ${pad} characters: redacted, then cut to 200`, async () => {
      const head = 'Upstream failure for credentials '.padEnd(pad, '.');
      const { all, cause } = await chatError((key) => ({
        status: 500,
        type: 'text/plain',
        body: `${head}${key} (retry later)`,
      }));
      const redacted = `${head}[redacted] (retry later)`;
      const shown = redacted.length > 200 ? `${redacted.slice(0, 199)}…` : redacted;
      expect(cause.message).toBe(`Provider 'a' answered HTTP 500: ${shown}`);
      expect(leaked(all)).toBe(0);
    });
  }

  it('the key at the very end of a long body, cut inside it', async () => {
    const head = 'x'.repeat(150);
    const { all, cause } = await chatError((key) => ({
      status: 503,
      type: 'text/plain',
      body: `${head} ${key}`,
    }));
    expect(cause.message).toBe(`Provider 'a' answered HTTP 503: ${head} [redacted]`);
    expect(leaked(all)).toBe(0);
  });

  it('a JSON error body whose message (cut to 500) holds the key across the cut', async () => {
    const text = `${'y'.repeat(450)} `;
    const { all, cause } = await chatError((key) => ({
      status: 400,
      type: 'application/json',
      body: JSON.stringify({ error: { message: `${text}${key}`, type: 'invalid_request_error' } }),
    }));
    expect(cause.message).toBe(`Provider 'a' answered HTTP 400: ${text}[redacted]`);
    expect(cause.providerType).toBe('invalid_request_error');
    expect(leaked(all)).toBe(0);
  });

  it('an in-stream error event whose text (cut to 200) holds the key across the cut', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      const key = String(req.headers.authorization).slice('Bearer '.length);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: error\n${sseFrames([JSON.stringify(`${'z'.repeat(150)} ${key}`)])}`);
    });
    const { error } = await drain(
      router(chatConfig(server.url)).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
    expect(cause.message).toBe(`Provider 'a' sent an error event mid-stream: ${'z'.repeat(150)} [redacted]…`);
    expect(leaked((error as Error).message)).toBe(0);
  });

  it('a WebSocket close reason the server cut to 123 bytes inside the key', async () => {
    const server = await wsServer((ws, req) => {
      const key = String(req.headers.authorization).slice('Token '.length);
      ws.close(4001, `invalid credentials ${key}`.slice(0, 123));
    });
    const r = router({
      providers: { dg: { kind: 'deepgram', baseUrl: server.url, apiKey: KEY, stt: { model: 'nova-3' } } },
      routes: { stt: { providers: ['dg'], strategy: 'priority' } },
    });
    const audio = (async function* () {
      yield new Uint8Array(3200);
    })();
    const { error } = await drain(
      r.stt({ audio, format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } }),
    );
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
    expect(cause.message).toMatch(
      /^Provider 'dg' closed the WebSocket with code 4001.*: invalid credentials \[redacted\]$/,
    );
    expect(leaked((error as Error).message)).toBe(0);
  });
});
