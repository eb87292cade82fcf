import { describe, expect, it } from 'vitest';
import { AbortError, ProviderError } from '../../src/errors/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { closedPort, type Loopback, loopbackHooks, readAll, rejectionOf, startLoopback } from './loopback.js';
import { modes } from './modes.js';
import { route } from './routes.js';

describe.each(modes)('HTTP transport over loopback ($name)', ({ name, create }) => {
  let loop: Loopback;
  let transport: HttpTransport;

  loopbackHooks(
    route,
    (started) => (loop = started),
    () => transport,
  );

  it('streams a 2xx body chunk by chunk with status and lower-case headers', async () => {
    transport = create();
    const response = await transport.request({ provider: 'p', method: 'GET', url: `${loop.origin}/chunks` });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['x-multi']).toBe('1, 2');
    expect((await readAll(response.body)).toString()).toBe('abbccc');
  });

  it('sends string, byte and streamed request bodies exactly', async () => {
    transport = create();
    const send = async (body: string | Uint8Array | AsyncIterable<Uint8Array>) => {
      const response = await transport.request({
        provider: 'p',
        method: 'POST',
        url: `${loop.origin}/echo`,
        headers: { 'content-type': 'application/x-test' },
        body,
      });
      expect(response.headers['content-type']).toBe('application/x-test');
      return (await readAll(response.body)).toString();
    };
    expect(await send('{"text":"héllo"}')).toBe('{"text":"héllo"}');
    expect(await send(Uint8Array.of(104, 105))).toBe('hi');
    async function* parts() {
      yield new TextEncoder().encode('one,');
      yield new TextEncoder().encode('two');
    }
    expect(await send(parts())).toBe('one,two');
  });

  it('throws ProviderError for 429 with Retry-After and the provider code, never the Authorization header', async () => {
    transport = create();
    const error = await rejectionOf(
      transport.request({
        provider: 'ec2',
        method: 'POST',
        url: `${loop.origin}/status/429`,
        headers: { authorization: 'Bearer sk-live-0123456789' },
        body: '{}',
      }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect({
      message: error.message,
      status: error.status,
      retryable: error.retryable,
      retryAfterMs: error.retryAfterMs,
      providerCode: error.providerCode,
      provider: error.provider,
    }).toEqual({
      message: "Provider 'ec2' answered HTTP 429: Rate limited for [redacted]",
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
      providerCode: 'rate_limit_exceeded',
      provider: 'ec2',
    });
  });

  it('throws a non-retryable ProviderError for 404 with the FastAPI detail', async () => {
    transport = create();
    const error = await rejectionOf(
      transport.request({ provider: 'k', method: 'GET', url: `${loop.origin}/status/404` }),
    );
    expect(ProviderError.isInstance(error) && [error.status, error.retryable, error.message]).toEqual([
      404,
      false,
      "Provider 'k' answered HTTP 404: Model not found",
    ]);
  });

  it('throws a retryable ProviderError without status for a refused connection', async () => {
    transport = create();
    const port = await closedPort();
    const error = await rejectionOf(
      transport.request({ provider: 'p', method: 'GET', url: `http://127.0.0.1:${port}/` }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect([error.retryable, error.status]).toEqual([true, undefined]);
    expect(error.message).toMatch(/^Network error talking to provider 'p': .*ECONNREFUSED/);
  });

  it('rejects with AbortError at once, sending nothing, when the signal is already aborted', async () => {
    transport = create();
    const before = loop.requests.length;
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(
      transport.request({
        provider: 'p',
        method: 'GET',
        url: `${loop.origin}/chunks`,
        signal: controller.signal,
      }),
    );
    expect(AbortError.isInstance(error)).toBe(true);
    expect(loop.requests.length).toBe(before);
  });

  it('close() ends streams in flight with AbortError, closes their sockets, and refuses new requests', async () => {
    transport = create();
    const before = loop.requests.length;
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: `${loop.origin}/first-then-hold`,
    });
    const iterator = response.body[Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await iterator.next()).value)).toBe('data: {"n":0}\n\n');
    const seen = await loop.request(before);
    await transport.close();
    expect(AbortError.isInstance(await rejectionOf(iterator.next()))).toBe(true);
    expect(await seen.socketClosed).toBeGreaterThan(0);
    const error = await rejectionOf(
      transport.request({ provider: 'p', method: 'GET', url: `${loop.origin}/chunks` }),
    );
    expect(AbortError.isInstance(error) && error.message).toBe('The HTTP transport is closed');
  });

  it(`preconnect() opens a keep-alive connection that the next request reuses (${name})`, async () => {
    const own = await startLoopback(route);
    try {
      transport = create();
      await transport.preconnect?.(own.origin, { provider: 'p' });
      expect(own.requests.map((r) => [r.method, r.url])).toEqual([['OPTIONS', '/']]);
      const response = await transport.request({ provider: 'p', method: 'GET', url: `${own.origin}/chunks` });
      expect((await readAll(response.body)).toString()).toBe('abbccc');
      expect(own.connections.length).toBe(1);
      expect(own.requests[1]?.socket).toBe(own.requests[0]?.socket);
    } finally {
      await own.close();
    }
  });
});
