import type http from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ProviderError, TimeoutError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpRequest, HttpTransport, HttpTransportOptions } from '../../src/transport/types.js';
import { FakeClock } from './fake-clock.js';
import { type Loopback, readAll, rejectionOf, startLoopback } from './loopback.js';

/** What the server does with the n-th request it receives (0-based). */
type Action = 'answer' | 'destroy' | 'hold';

/**
 * A keep-alive loopback server scripted per request: `answer` reads the body and answers
 * `ok<n>:<body>`; `destroy` destroys the socket as soon as the request's headers arrived, without
 * a byte of response (the client only learns it after it wrote the request); `hold` never answers.
 */
function scriptedServer(script: Action[]): Promise<Loopback> {
  let index = 0;
  return startLoopback((req: http.IncomingMessage, res: http.ServerResponse) => {
    const n = index++;
    const action = script[n] ?? 'answer';
    if (action === 'destroy') {
      req.socket.destroy();
      return;
    }
    if (action === 'hold') return;
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => res.end(`ok${n}:${Buffer.concat(parts).toString()}`));
  });
}

/** undici marks a socket free for its pool one event-loop turn after the response ended. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function* streamOf(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

describe('reused keep-alive socket reset before any response byte (undici wire)', () => {
  let loop: Loopback | undefined;
  let transport: HttpTransport | undefined;
  let agent: Agent | undefined;

  afterEach(async () => {
    await transport?.close();
    await agent?.destroy();
    await loop?.close();
    transport = undefined;
    agent = undefined;
    loop = undefined;
  });

  /** Starts the server and a transport, and completes request 0 so that its socket is pooled. */
  async function warm(script: Action[], options: HttpTransportOptions = {}): Promise<HttpTransport> {
    loop = await scriptedServer(script);
    transport = createHttpTransport(options);
    const first = await transport.request({ provider: 'a', method: 'GET', url: `${loop.origin}/warm` });
    expect((await readAll(first.body)).toString()).toBe('ok0:');
    await nextTurn();
    return transport;
  }

  const bodies: [string, Pick<HttpRequest, 'method' | 'body'>, string][] = [
    ['a string body', { method: 'POST', body: '{"text":"hello"}' }, '{"text":"hello"}'],
    ['a Uint8Array body', { method: 'POST', body: new TextEncoder().encode('pcm-bytes') }, 'pcm-bytes'],
    ['no body (GET)', { method: 'GET' }, ''],
  ];

  for (const [name, request, sent] of bodies) {
    it(`retries ${name} once on a new connection and surfaces no error`, async () => {
      const http = await warm(['answer', 'destroy', 'answer']);
      const response = await http.request({ provider: 'a', url: `${loop?.origin}/call`, ...request });
      expect([response.status, (await readAll(response.body)).toString()]).toEqual([200, `ok2:${sent}`]);
      const seen = loop?.requests ?? [];
      expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /warm',
        `${request.method} /call`,
        `${request.method} /call`,
      ]);
      expect(loop?.connections.length).toBe(2);
      // Request 1 went out on the pooled socket of request 0; the retry on the new one.
      expect(seen[1]?.socket).toBe(seen[0]?.socket);
      expect(seen[2]?.socket).toBe(loop?.connections[1]);
      expect(seen[2]?.socket).not.toBe(seen[0]?.socket);
    });
  }

  it('retries on a caller-supplied dispatcher (Agent, connections: 1) too', async () => {
    agent = new Agent({ connections: 1 });
    const http = await warm(['answer', 'destroy', 'answer'], { dispatcher: agent });
    const response = await http.request({
      provider: 'a',
      method: 'POST',
      url: `${loop?.origin}/call`,
      body: 'x',
    });
    expect((await readAll(response.body)).toString()).toBe('ok2:x');
    expect([loop?.requests.length, loop?.connections.length]).toEqual([3, 2]);
  });

  it('does not retry a reset of a fresh connection: ProviderError, retryable, not marked', async () => {
    loop = await scriptedServer(['destroy', 'answer']);
    transport = createHttpTransport();
    const error = await rejectionOf(
      transport.request({ provider: 'a', method: 'POST', url: `${loop.origin}/call`, body: 'x' }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect([
      error.provider,
      error.status,
      error.retryable,
      error.reusedSocketReset,
      error.partialOutput,
    ]).toEqual(['a', undefined, true, false, false]);
    expect(error.message).toMatch(/^Network error talking to provider 'a': /);
    expect([loop.requests.length, loop.connections.length]).toEqual([1, 1]);
  });

  it('does not retry a streamed (AsyncIterable) body: ProviderError with reusedSocketReset: true', async () => {
    const http = await warm(['answer', 'destroy', 'answer']);
    const error = await rejectionOf(
      http.request({ provider: 'a', method: 'POST', url: `${loop?.origin}/call`, body: streamOf('a', 'b') }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect([
      error.provider,
      error.status,
      error.retryable,
      error.reusedSocketReset,
      error.partialOutput,
    ]).toEqual(['a', undefined, true, true, false]);
    expect([loop?.requests.length, loop?.connections.length]).toEqual([2, 1]);
  });

  it('surfaces the error of a retry that fails too, not marked (the retry used a fresh connection)', async () => {
    const http = await warm(['answer', 'destroy', 'destroy', 'answer']);
    const error = await rejectionOf(
      http.request({ provider: 'a', method: 'POST', url: `${loop?.origin}/call`, body: 'x' }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect([error.status, error.retryable, error.reusedSocketReset]).toEqual([undefined, true, false]);
    expect([loop?.requests.length, loop?.connections.length]).toEqual([3, 2]);
  });

  it('keeps the exchange deadlines running across the retry, and a timeout closes the retry connection', async () => {
    const clock = new FakeClock();
    const http = await warm(['answer', 'destroy', 'hold'], { clock });
    const pending = http.request({
      provider: 'a',
      method: 'GET',
      url: `${loop?.origin}/call`,
      deadlines: { headersMs: 1000 },
    });
    const retry = await (loop as Loopback).request(2);
    clock.advance(1000);
    const error = await rejectionOf(pending);
    expect(TimeoutError.isInstance(error) && [error.phase, error.timeoutMs]).toEqual(['headers', 1000]);
    expect(await retry.socketClosed).toBeGreaterThan(0);
    expect(loop?.requests.length).toBe(3);
  });

  it("aborting the caller's signal during the retry closes the retry connection", async () => {
    const http = await warm(['answer', 'destroy', 'hold']);
    const controller = new AbortController();
    const pending = http.request({
      provider: 'a',
      method: 'GET',
      url: `${loop?.origin}/call`,
      signal: controller.signal,
    });
    const retry = await (loop as Loopback).request(2);
    controller.abort(new Error('caller left'));
    const error = await rejectionOf(pending);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(await retry.socketClosed).toBeGreaterThan(0);
    expect(loop?.requests.length).toBe(3);
  });
});

describe('reused keep-alive socket reset (fetch wire)', () => {
  it('is not retried: a fetch cannot tell a reused connection (documented, undici path only)', async () => {
    const loop = await scriptedServer(['answer', 'destroy', 'answer']);
    const transport = createHttpTransport({ fetch: globalThis.fetch });
    try {
      const first = await transport.request({ provider: 'a', method: 'GET', url: `${loop.origin}/warm` });
      expect((await readAll(first.body)).toString()).toBe('ok0:');
      await nextTurn();
      const error = await rejectionOf(
        transport.request({ provider: 'a', method: 'POST', url: `${loop.origin}/call`, body: 'x' }),
      );
      expect(ProviderError.isInstance(error) && [error.retryable, error.reusedSocketReset]).toEqual([
        true,
        false,
      ]);
      expect(loop.requests.length).toBe(2);
      expect(loop.requests[1]?.socket).toBe(loop.requests[0]?.socket);
    } finally {
      await transport.close();
      await loop.close();
    }
  });
});
