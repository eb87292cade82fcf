import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { AFTER_END_MS } from '../../src/transport/drain-rest.js';
import { FakeClock } from '../transport/fake-clock.js';
import { type Loopback, startLoopback } from '../transport/loopback.js';
import { modes } from '../transport/modes.js';

/**
 * Kind: a server keeps a streamed body open after its end marker. The answer is complete at the
 * marker; the rest of the body is drained in the background so the connection can be reused,
 * but a body still open AFTER_END_MS later must close its connection, not hold it (and a pooled
 * socket) for as long as the server likes.
 */

const CHUNK = (text: string, finish: string | null) =>
  `data: ${JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta: text ? { content: text } : {}, finish_reason: finish }],
  })}\n\n`;

/** An OpenAI-style chat server (its own wire, not voxroute's mock): `[DONE]`, then the body stays open unless `end`. */
function chatServer(end: (n: number) => boolean) {
  let n = 0;
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const index = n++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(CHUNK('Hello.', null));
      res.write(CHUNK('', 'stop'));
      res.write('data: [DONE]\n\n');
      if (end(index)) res.end();
    });
  };
}

describe('body open after end marker: the connection is closed, not held', () => {
  let loop: Loopback | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    await loop?.close();
    router = undefined;
    loop = undefined;
  });

  for (const mode of modes) {
    it(`${mode.name}: closes the socket ${AFTER_END_MS} ms after [DONE], not before`, async () => {
      loop = await startLoopback(chatServer(() => false));
      const clock = new FakeClock();
      const router_ = createRouter(
        {
          providers: {
            a: { kind: 'openai-compatible', baseUrl: `${loop.origin}/v1`, chat: { models: { fast: 'm' } } },
          },
          routes: { chat: { providers: ['a'] } },
        },
        {
          clock,
          ...(mode.name === 'fetch' ? { fetch: (input, init) => globalThis.fetch(input, init) } : {}),
        },
      );
      router = router_;
      let text = '';
      for await (const delta of router_.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
        if (delta.type === 'text-delta') text += delta.text;
      expect(text).toBe('Hello.');
      const seen = loop.requests[0]!;
      let closed = false;
      void seen.socketClosed.then(() => {
        closed = true;
      });
      // One ms short of the grace: still open (the server may yet end the body).
      clock.advance(AFTER_END_MS - 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      clock.advance(1);
      await seen.socketClosed;
      expect(closed).toBe(true);
    });
  }

  it('a body that ends after [DONE] keeps its connection, also once the grace has passed', async () => {
    loop = await startLoopback(chatServer(() => true));
    const clock = new FakeClock();
    const router_ = createRouter(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${loop.origin}/v1`, chat: { models: { fast: 'm' } } },
        },
        routes: { chat: { providers: ['a'] } },
      },
      { clock },
    );
    router = router_;
    const call = async () => {
      let text = '';
      for await (const delta of router_.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
        if (delta.type === 'text-delta') text += delta.text;
      // undici frees the socket for its pool one turn after the body ended.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      return text;
    };
    expect([await call(), await call(), await call()]).toEqual(['Hello.', 'Hello.', 'Hello.']);
    // The grace of each call passes: nothing of theirs may close the pooled socket.
    clock.advance(AFTER_END_MS);
    expect(await call()).toBe('Hello.');
    expect(loop.requests).toHaveLength(4);
    expect(loop.connections).toHaveLength(1);
    expect(loop.connections[0]!.destroyed).toBe(false);
  });
});
