/**
 * The wait for a call's first input (stt(): the first whole sample of the caller's audio;
 * tts(): the first text of a streamed text source) ends with the call itself: its deadline
 * (TimeoutError, phase 'total'), the route's totalTimeoutMs, the consumer's return() while a
 * next() is pending, the caller's signal and router.close(). The caller's source here never
 * yields; each test waits on the event that the wait has begun (the source was pulled).
 */
import { describe, expect, it } from 'vitest';
import { AbortError, TimeoutError } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { drain, httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

/** A source that never yields; `pulled` resolves at its first next(), `returned` at its return(). */
function never<T>() {
  const pulled = deferred();
  const returned = deferred();
  const source: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        pulled.resolve();
        return new Promise<IteratorResult<T>>(() => {});
      },
      return: async () => {
        returned.resolve();
        return { done: true, value: undefined };
      },
    }),
  };
  return { source, pulled: pulled.promise, returned: returned.promise };
}

async function sttRouter(totalTimeoutMs?: number) {
  const server = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"hello"}');
    });
  });
  const r = router({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: server.url, stt: { model: 'w', streaming: false } },
    },
    routes: {
      stt: {
        providers: ['a'],
        strategy: 'priority',
        firstChunkTimeoutMs: false,
        ...(totalTimeoutMs ? { totalTimeoutMs } : {}),
      },
    },
  });
  return { server, r };
}

async function ttsRouter() {
  const server = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.alloc(480));
    });
  });
  const r = router({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: `${server.url}/v1`, tts: { voices: { agent: 'v' } } },
    },
    routes: { tts: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
  });
  return { server, r };
}

describe('stt(): the wait for the first whole sample ends with the call', () => {
  it("the call's deadlineMs: TimeoutError phase 'total', no provider contacted", async () => {
    const { server, r } = await sttRouter();
    const audio = never<Uint8Array>();
    const stream = r.stt({ audio: audio.source, format: FORMAT, deadlineMs: 40 });
    const { items, error } = await drain(stream);
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('total');
    expect((error as TimeoutError).timeoutMs).toBe(40);
    await expect(stream.result).rejects.toBe(error);
    await audio.returned;
    expect(server.hits).toBe(0);
  });

  it("the route's totalTimeoutMs: TimeoutError phase 'total'", async () => {
    const { r } = await sttRouter(40);
    const { error } = await drain(r.stt({ audio: never<Uint8Array>().source, format: FORMAT }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('total');
    expect((error as TimeoutError).timeoutMs).toBe(40);
  });

  it('return() while next() is pending (barge-in): both settle, the audio source is returned', async () => {
    const { server, r } = await sttRouter();
    const audio = never<Uint8Array>();
    const it = r.stt({ audio: audio.source, format: FORMAT })[Symbol.asyncIterator]();
    const pending = it.next();
    await audio.pulled;
    expect(await it.return!(undefined)).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    await audio.returned;
    expect(server.hits).toBe(0);
  });

  it("the caller's signal: AbortError", async () => {
    const { r } = await sttRouter();
    const audio = never<Uint8Array>();
    const ac = new AbortController();
    const done = drain(r.stt({ audio: audio.source, format: FORMAT, signal: ac.signal }));
    await audio.pulled;
    ac.abort();
    expect((await done).error).toBeInstanceOf(AbortError);
  });

  it('router.close(): AbortError', async () => {
    const { r } = await sttRouter();
    const audio = never<Uint8Array>();
    const done = drain(r.stt({ audio: audio.source, format: FORMAT }));
    await audio.pulled;
    void r.close();
    expect((await done).error).toBeInstanceOf(AbortError);
  });
});

describe('tts(): the wait for streamed text that never yields ends with the call', () => {
  it("deadlineMs: TimeoutError phase 'total'", async () => {
    const { server, r } = await ttsRouter();
    const text = never<string>();
    const { items, error } = await drain(r.tts({ text: text.source, voice: 'agent', deadlineMs: 40 }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('total');
    expect((error as TimeoutError).timeoutMs).toBe(40);
    expect(server.hits).toBe(0);
  });

  it('return() while next() is pending: both settle, the text source is returned', async () => {
    const { r } = await ttsRouter();
    const text = never<string>();
    const it = r.tts({ text: text.source, voice: 'agent' })[Symbol.asyncIterator]();
    const pending = it.next();
    await text.pulled;
    expect(await it.return!(undefined)).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    await text.returned;
  });

  it("the caller's signal: AbortError", async () => {
    const { r } = await ttsRouter();
    const text = never<string>();
    const ac = new AbortController();
    const done = drain(r.tts({ text: text.source, voice: 'agent', signal: ac.signal }));
    await text.pulled;
    ac.abort();
    expect((await done).error).toBeInstanceOf(AbortError);
  });
});
