import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { type Loopback, startLoopback } from '../transport/loopback.js';

/**
 * Kind: a stream whose end is an event of its own (Cartesia's `done`, no `[DONE]` after it) must
 * leave its connection to the pool when the server then ends the body, as `[DONE]` streams do:
 * stopping the read at the event closed the socket, and every call paid a new connection.
 */

const PCM = Buffer.from([1, 0, 2, 0, 3, 0, 4, 0]);

/** Resolved when each response is over (ended by the server, or its socket closed). */
const finished: Promise<void>[] = [];

/**
 * Cartesia's `POST /tts/sse` wire (PROTOCOLS.md 1.4), written here: one chunk, then `done`, then
 * the body's end in a later write (20 ms on), as it can reach a client over a real network.
 */
function cartesiaSse(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  finished.push(new Promise((resolve) => res.on('close', resolve)));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ type: 'chunk', data: PCM.toString('base64'), done: false, status_code: 206 })}\n\n`,
    );
    res.write(`data: ${JSON.stringify({ type: 'done', done: true, status_code: 200 })}\n\n`);
    setTimeout(() => res.end(), 20);
  });
}

describe('connection reused after an end event', () => {
  let loop: Loopback | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    await loop?.close();
  });

  it('Cartesia /tts/sse: three calls in a row go over one connection', async () => {
    loop = await startLoopback(cartesiaSse);
    const router_ = createRouter({
      providers: {
        sonic: {
          kind: 'cartesia',
          baseUrl: loop.origin,
          apiKey: 'test-key',
          tts: { model: 'sonic-3', voices: { agent: 'v1' }, transport: 'sse' },
        },
      },
      routes: { tts: { providers: ['sonic'] } },
    });
    router = router_;
    const format = { encoding: 'pcm_s16le', sampleRate: 24_000 } as const;
    for (let i = 0; i < 3; i++) {
      const bytes: number[] = [];
      for await (const chunk of router_.tts({ text: 'Hello there.', voice: 'agent', format }))
        bytes.push(...chunk.data);
      expect(Buffer.from(bytes)).toEqual(PCM);
      await finished[i];
      // undici frees the socket for its pool one turn after the body ended.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(loop.requests.map((r) => r.url)).toEqual(['/tts/sse', '/tts/sse', '/tts/sse']);
    expect(loop.connections).toHaveLength(1);
  });
});
