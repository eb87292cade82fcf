/**
 * When every attempt fails, AllProvidersFailedError's message joins one part per attempt with
 * '; '. A part is the attempt's error message as one clause: its closing punctuation is dropped
 * (no '.;' or '..' where a message ended in a full stop), white space is folded (a message over
 * several lines stays on one), and an empty message gives the error's name, never an empty part.
 * The servers speak OpenAI's chat wire on their own (node:http) and fail with error bodies.
 */
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  AllProvidersFailedError,
  type Attempt,
  ProviderError,
  TimeoutError,
} from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

/** A chat server answering every request with HTTP `status` and an OpenAI error of `message`. */
const failing = (status: number, message: string) =>
  httpServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'server_error' } }));
  });

const provider = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  chat: { models: { fast: 'm' } },
});

/** A failed attempt on `provider` with `error`. */
const failed = (provider: string, error?: Error, outcome: Attempt['outcome'] = 'failed'): Attempt => ({
  provider,
  outcome,
  startedAtMs: 0,
  ...(error ? { error } : {}),
});

describe('attempt messages joined in AllProvidersFailedError', () => {
  it('three providers whose messages end in punctuation: one clean part each', async () => {
    const a = await failing(503, 'The server is overloaded.');
    const b = await failing(500, 'Internal error.. Try again later..');
    const c = await failing(502, 'Bad gateway.\n');
    const { items, error } = await drain(
      router({
        providers: { a: provider(a.url), b: provider(b.url), c: provider(c.url) },
        routes: { chat: { providers: ['a', 'b', 'c'], strategy: 'priority' } },
      }).chat({ model: 'fast', messages: [{ role: 'user', content: 'Book a table.' }] }),
    );
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    expect((error as Error).message).toBe(
      "All providers failed for chat: a: Provider 'a' answered HTTP 503: The server is overloaded; " +
        "b: Provider 'b' answered HTTP 500: Internal error.. Try again later; " +
        "c: Provider 'c' answered HTTP 502: Bad gateway",
    );
    // Each attempt keeps its own error, message untouched.
    expect((error as AllProvidersFailedError).attempts.map((x) => (x.error as Error).message)).toEqual([
      "Provider 'a' answered HTTP 503: The server is overloaded.",
      "Provider 'b' answered HTTP 500: Internal error.. Try again later..",
      "Provider 'c' answered HTTP 502: Bad gateway.",
    ]);
  });

  it('empty messages, trailing separators and white space: no empty part, no doubled punctuation', () => {
    const error = new AllProvidersFailedError('tts', [
      failed('a', new ProviderError('', { provider: 'a', status: 500 })),
      failed('b', new ProviderError('Quota exceeded;', { provider: 'b', status: 429 })),
      failed('c', new ProviderError('  Line one.\n  Line two.  ', { provider: 'c' })),
      failed('d', new TimeoutError('first-chunk', 800, { provider: 'd' })),
      failed('e', new ProviderError('...', { provider: 'e' })),
      failed('f', undefined, 'aborted'),
      failed('g', new AbortError('')),
    ]);
    expect(error.message).toBe(
      'All providers failed for tts: a: ProviderError; b: Quota exceeded; c: Line one. Line two; ' +
        "d: No first chunk from provider 'd' within 800 ms (firstChunkTimeoutMs); e: ProviderError; " +
        'f: aborted; g: AbortError',
    );
    expect(error.message).not.toMatch(/[.;,:]\s*[.;]|;\s*;|:\s*;|:\s*$/);
  });

  it('the reason of a call with no attempt is one clause too', () => {
    expect(new AllProvidersFailedError('stt', [], 'the route has no provider.').message).toBe(
      'All providers failed for stt: the route has no provider',
    );
    expect(new AllProvidersFailedError('stt', [], ' ').message).toBe(
      'All providers failed for stt: no candidate provider',
    );
  });
});
