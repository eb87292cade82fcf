import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpTransport, HttpTransportOptions } from '../../src/transport/types.js';
import { stalePoolHandler } from '../helpers/stale-pool-server.js';
import { type Loopback, readAll, startLoopback } from './loopback.js';

/** undici marks a socket free for its pool one event-loop turn after the response ended. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A keep-alive server that logs, per request, whether it came on a `fresh` socket or a `reuse`d
 * one. `warm(n)` holds the answers until `n` requests are in, so that the client opens `n`
 * connections and pools them all; `dropAll()` then makes it destroy every socket as soon as a
 * request arrives on it a second time, without a byte of answer: a load balancer's idle reset or
 * a restarted server, which drop every idle connection at once.
 */
async function stalePoolServer() {
  const { state, handle } = stalePoolHandler((req, res) => res.end(`ok:${req.url}`));
  const loop = await startLoopback(handle);
  const log = state.log;
  return {
    loop,
    log,
    /** Opens `n` pooled connections with `n` concurrent requests, then makes every reuse fatal. */
    async warm(transport: HttpTransport, n: number): Promise<void> {
      state.holdUntil = n;
      const bodies = await Promise.all(
        Array.from({ length: n }, (_, i) => call(transport, loop, `/warm${i}`)),
      );
      expect(bodies).toEqual(Array.from({ length: n }, (_, i) => `200 ok:/warm${i}`));
      await nextTurn();
      state.dropReused = true;
    },
  };
}

async function call(transport: HttpTransport, loop: Loopback, path: string): Promise<string> {
  const response = await transport.request({
    provider: 'a',
    method: 'POST',
    url: `${loop.origin}${path}`,
    body: `{"path":"${path}"}`,
  });
  return `${response.status} ${(await readAll(response.body)).toString()}`;
}

describe('stale pool retry: every idle pooled socket of the origin dropped at once', () => {
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

  async function setUp(options: HttpTransportOptions = {}) {
    const server = await stalePoolServer();
    loop = server.loop;
    transport = createHttpTransport(options);
    await server.warm(transport, 3);
    expect(server.log).toEqual(['fresh', 'fresh', 'fresh']);
    expect(server.loop.connections.length).toBe(3);
    server.log.length = 0;
    return { ...server, transport };
  }

  it('retries each call on a connection opened for it, never on another stale pooled socket', async () => {
    const { log, transport: http, loop: server } = await setUp();
    // Calls back to back, as a caller's loop sends them: undici's pool then hands a retry
    // another idle socket while the failed one's client is still draining.
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) bodies.push(await call(http, server, `/call${i}`));
    expect(bodies).toEqual(['200 ok:/call0', '200 ok:/call1', '200 ok:/call2', '200 ok:/call3']);
    // Every request that met a dropped socket (reuse) was followed by its retry on a new
    // connection (fresh); call 1 found a pooled client without a socket and opened one.
    expect(log).toEqual(['reuse', 'fresh', 'fresh', 'reuse', 'fresh', 'reuse', 'fresh']);
    expect(server.connections.length).toBe(3 + 4);
    expect(server.requests.slice(3).map((r) => r.url)).toEqual([
      '/call0',
      '/call0',
      '/call1',
      '/call2',
      '/call2',
      '/call3',
      '/call3',
    ]);
    // Each retry's one-off connection is closed once its answer ended.
    for (const retry of [4, 7, 9]) expect(await server.requests[retry]?.socketClosed).toBeGreaterThan(0);
  });

  it('serves concurrent calls that all meet a stale socket: one retry each, on new connections', async () => {
    const { log, transport: http, loop: server } = await setUp();
    const bodies = await Promise.all([0, 1, 2].map((i) => call(http, server, `/call${i}`)));
    expect(bodies).toEqual(['200 ok:/call0', '200 ok:/call1', '200 ok:/call2']);
    expect(log).toEqual(['reuse', 'reuse', 'reuse', 'fresh', 'fresh', 'fresh']);
    expect(server.connections.length).toBe(6);
    const urls = server.requests.slice(3).map((r) => r.url);
    expect([...urls].sort()).toEqual(['/call0', '/call0', '/call1', '/call1', '/call2', '/call2']);
  });

  it("through a caller's dispatcher (its connections are its own) retries past each stale socket", async () => {
    agent = new Agent();
    const { log, transport: http, loop: server } = await setUp({ dispatcher: agent });
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) bodies.push(await call(http, server, `/call${i}`));
    expect(bodies).toEqual(['200 ok:/call0', '200 ok:/call1', '200 ok:/call2', '200 ok:/call3']);
    // Call 1's retry went through the dispatcher onto another stale socket, and was retried again.
    expect(log).toEqual(['reuse', 'fresh', 'reuse', 'reuse', 'fresh', 'fresh', 'reuse', 'fresh']);
    expect(server.connections.length).toBe(3 + 4);
  });
});
