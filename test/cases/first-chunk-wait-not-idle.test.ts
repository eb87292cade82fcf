import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AllProvidersFailedError, createRouter, type Router, TimeoutError } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { headersReceived } from '../helpers/headers-received.js';
import { FakeClock } from '../transport/fake-clock.js';
import { type Loopback, startLoopback } from '../transport/loopback.js';
import { modes } from '../transport/modes.js';
import { chatChunk, sseFrames } from './wire/servers.js';

/**
 * Kind: the wait for a provider's first chunk is the first-chunk deadline's, not the idle one's.
 * A streaming server that sends its headers at once and its first data seconds later (a long
 * prompt, a cold model) is inside `firstChunkTimeoutMs`; the idle deadline (`idleTimeoutMs`,
 * default 5 s) is the longest gap between chunks and starts with the first body byte. Before,
 * it counted from the headers, so any first chunk later than 5 s failed with phase `idle`
 * whatever `firstChunkTimeoutMs` said (30 s, `'auto'` or `false`).
 *
 * The servers speak the wire on their own (node:http, SSE and raw PCM); the router's clock is a
 * fake one moved by the test, once the client has the response headers (undici's diagnostics
 * channel `undici:request:headers`, which Node's fetch publishes too).
 */

/** Headers at once; the body when the test calls `release()`. */
function lateBodyServer(kind: 'chat' | 'tts') {
  const release = deferred<void>();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': kind === 'chat' ? 'text/event-stream' : 'audio/pcm' });
      res.flushHeaders();
      void release.promise.then(() => {
        if (kind === 'chat')
          res.end(sseFrames([chatChunk({ content: 'Hello.' }), chatChunk({}, 'stop'), '[DONE]']));
        else res.end(Buffer.alloc(4800, 7));
      });
    });
  };
  return { handler, release: () => release.resolve() };
}

describe('first chunk wait is not idle time', () => {
  let loop: Loopback | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    await loop?.close();
    router = undefined;
    loop = undefined;
  });

  function start(clock: FakeClock, firstChunkTimeoutMs: number | false | 'auto', fetchMode: boolean) {
    return createRouter(
      {
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: `${loop!.origin}/v1`,
            chat: { models: { fast: 'm' } },
            tts: { voices: { v: 'alloy' } },
          },
        },
        routes: {
          chat: { providers: ['a'], firstChunkTimeoutMs },
          tts: { providers: ['a'], firstChunkTimeoutMs },
        },
      },
      { clock, ...(fetchMode ? { fetch: (input, init) => globalThis.fetch(input, init) } : {}) },
    );
  }

  for (const mode of modes) {
    for (const limit of [30_000, false, 'auto'] as const) {
      it(`${mode.name}: chat, headers at once, first delta 6 s later, firstChunkTimeoutMs ${String(limit)}: answered`, async () => {
        const server = lateBodyServer('chat');
        loop = await startLoopback(server.handler);
        const clock = new FakeClock();
        router = start(clock, limit, mode.name === 'fetch');
        const headers = headersReceived();
        const stream = router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
        const iterator = stream[Symbol.asyncIterator]();
        const first = iterator.next();
        await headers;
        // Past the idle deadline (5 s), inside the first-chunk one ('auto' on a provider never
        // measured is 10 s; docs/config.md).
        clock.advance(6_000);
        server.release();
        const deltas: unknown[] = [];
        for (let r = await first; !r.done; r = await iterator.next()) deltas.push(r.value);
        expect(deltas[0]).toEqual({ type: 'text-delta', text: 'Hello.' });
        expect((await stream.result).attempts.map((a) => [a.provider, a.outcome])).toEqual([
          ['a', 'success'],
        ]);
      });
    }

    it(`${mode.name}: tts, headers at once, first audio 6 s later: answered, exact bytes`, async () => {
      const server = lateBodyServer('tts');
      loop = await startLoopback(server.handler);
      const clock = new FakeClock();
      router = start(clock, 30_000, mode.name === 'fetch');
      const headers = headersReceived();
      const stream = router.tts({
        text: 'Hi.',
        voice: 'v',
        format: { encoding: 'pcm_s16le', sampleRate: 24_000 },
      });
      const it_ = stream[Symbol.asyncIterator]();
      const first = it_.next();
      await headers;
      clock.advance(6_000);
      server.release();
      const bytes: number[] = [];
      for (let r = await first; !r.done; r = await it_.next()) bytes.push(...r.value.data);
      expect(bytes).toEqual(Array(4800).fill(7));
    });

    it(`${mode.name}: a first chunk later than firstChunkTimeoutMs fails with phase first-chunk, not idle`, async () => {
      const server = lateBodyServer('chat');
      loop = await startLoopback(server.handler);
      const clock = new FakeClock();
      router = start(clock, 8_000, mode.name === 'fetch');
      const headers = headersReceived();
      const stream = router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
      const first = stream[Symbol.asyncIterator]()
        .next()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await headers;
      clock.advance(6_000);
      clock.advance(2_000);
      const error = await first;
      server.release();
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const cause = (error as AllProvidersFailedError).attempts[0]!.error;
      expect(cause).toBeInstanceOf(TimeoutError);
      expect([(cause as TimeoutError).phase, (cause as TimeoutError).timeoutMs]).toEqual([
        'first-chunk',
        8_000,
      ]);
    });
  }
});
