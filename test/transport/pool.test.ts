import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type Loopback, readAll, rejectionOf, startLoopback } from './loopback.js';
import { route } from './routes.js';

describe('error bodies and the connection pool (undici, connections: 1)', () => {
  let loop: Loopback;
  let dispatcher: Agent;
  let transport: HttpTransport;

  beforeEach(async () => {
    loop = await startLoopback(route);
    dispatcher = new Agent({ connections: 1 });
    transport = createHttpTransport({ dispatcher });
  });
  afterEach(async () => {
    await transport.close();
    await dispatcher.destroy();
    await loop.close();
  });

  it('C23: a 503 with a 1 MB body is cut after 64 KiB, so the next call to the origin completes promptly', async () => {
    const error = await rejectionOf(
      transport.request({ provider: 'a', method: 'POST', url: `${loop.origin}/big-error` }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect([error.status, error.retryable]).toEqual([503, true]);
    expect(error.message).toBe(`Provider 'a' answered HTTP 503: ${'e'.repeat(199)}…`);
    // Within 1 s (the SDK's own total deadline, on the real clock), or it throws TimeoutError.
    const response = await transport.request({
      provider: 'a',
      method: 'GET',
      url: `${loop.origin}/chunks`,
      deadlines: { totalMs: 1000 },
    });
    expect((await readAll(response.body)).toString()).toBe('abbccc');
    // No socket to the origin is left open but the idle keep-alive one.
    expect(loop.connections.filter((s) => !s.destroyed).length).toBe(1);
  });

  it('C23: a short error body is read to its end and the keep-alive connection is reused', async () => {
    const error = await rejectionOf(
      transport.request({ provider: 'a', method: 'GET', url: `${loop.origin}/small-error` }),
    );
    expect(ProviderError.isInstance(error) && [error.status, error.message, error.providerType]).toEqual([
      503,
      "Provider 'a' answered HTTP 503: warming up",
      'server_error',
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    const response = await transport.request({ provider: 'a', method: 'GET', url: `${loop.origin}/chunks` });
    expect((await readAll(response.body)).toString()).toBe('abbccc');
    expect(loop.connections.length).toBe(1);
    expect(loop.requests[1]?.socket).toBe(loop.requests[0]?.socket);
  });

  it('an abandoned 2xx body frees the only connection for the next call', async () => {
    const first = await transport.request({
      provider: 'a',
      method: 'GET',
      url: `${loop.origin}/first-then-hold`,
    });
    for await (const _ of first.body) break;
    const response = await transport.request({
      provider: 'a',
      method: 'GET',
      url: `${loop.origin}/chunks`,
      deadlines: { totalMs: 1000 },
    });
    expect((await readAll(response.body)).toString()).toBe('abbccc');
  });
});
