import type http from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type Loopback, readAll, startLoopback } from './loopback.js';

/** undici marks a socket free for its pool one event-loop turn after the response ended. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('keep-alive drop: a pooled socket the server drops when it is reused', () => {
  let loop: Loopback | undefined;
  let transport: HttpTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    await loop?.close();
  });

  it('is retried on a fresh connection every time: five calls in a row are all served', async () => {
    // A server that answers the first request of every socket and destroys the socket on its
    // second request, before any response byte (an idle timeout shorter than the client's).
    const served = new WeakMap<Socket, number>();
    loop = await startLoopback((req: http.IncomingMessage, res: http.ServerResponse) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n >= 2) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => res.end(`ok:${req.url}`));
    });
    transport = createHttpTransport();
    const bodies: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await transport.request({
        provider: 'a',
        method: 'POST',
        url: `${loop.origin}/call${i}`,
        body: `{"i":${i}}`,
      });
      bodies.push(`${response.status} ${(await readAll(response.body)).toString()}`);
      await nextTurn();
    }
    expect(bodies).toEqual([
      '200 ok:/call0',
      '200 ok:/call1',
      '200 ok:/call2',
      '200 ok:/call3',
      '200 ok:/call4',
    ]);
    // Call 0 on connection 1 (pooled); call 1 met it dropped and was retried on a connection of
    // its own, closed after; call 2 found the pool empty and opened connection 3 (pooled), and so on.
    expect(loop.connections.length).toBe(5);
    expect(loop.requests.map((r) => r.url)).toEqual([
      '/call0',
      '/call1',
      '/call1',
      '/call2',
      '/call3',
      '/call3',
      '/call4',
    ]);
  });
});
