/**
 * AbortLink, the abort scope of routed calls and attempts: an AbortSignal's semantics for the
 * `'abort'` event without making an AbortSignal (about 5 µs each on Node.js 20) unless one is
 * read; and a routed call, over loopback to a node:http server, makes none.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { AbortLink } from '../../src/internal/abort-link.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

describe('AbortLink', () => {
  it('calls each listener once, in the order added, with the default reason a DOMException named AbortError', () => {
    const link = new AbortLink();
    const calls: string[] = [];
    const a = () => calls.push(`a:${link.aborted}`);
    const b = () => calls.push('b');
    link.addEventListener('abort', a);
    link.addEventListener('abort', b);
    link.addEventListener('abort', a);
    expect(link.aborted).toBe(false);
    expect(link.reason).toBeUndefined();
    link.abort();
    link.abort(new Error('second'));
    expect(calls).toEqual(['a:true', 'b']);
    expect(link.reason).toBeInstanceOf(DOMException);
    expect((link.reason as DOMException).name).toBe('AbortError');
  });

  it('keeps the first reason; a removed listener is not called; one added after the abort is not called', () => {
    const link = new AbortLink();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    link.addEventListener('abort', removed);
    link.addEventListener('abort', () => calls.push('kept'));
    link.removeEventListener('abort', removed);
    const reason = new Error('hedge lost');
    link.abort(reason);
    link.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual(['kept']);
    expect(link.reason).toBe(reason);
  });

  it('a listener removed by an earlier one during the abort is not called', () => {
    const link = new AbortLink();
    const calls: string[] = [];
    const second = () => calls.push('second');
    link.addEventListener('abort', () => {
      calls.push('first');
      link.removeEventListener('abort', second);
    });
    link.addEventListener('abort', second);
    link.addEventListener('abort', () => calls.push('third'));
    link.abort();
    expect(calls).toEqual(['first', 'third']);
  });

  it('a listener that throws does not stop the next; its error is rethrown in a microtask', () => {
    const link = new AbortLink();
    const queued: (() => void)[] = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      queued.push(task);
    });
    const calls: string[] = [];
    link.addEventListener('abort', () => {
      throw new Error('listener failed');
    });
    link.addEventListener('abort', () => calls.push('next'));
    link.abort();
    spy.mockRestore();
    expect(calls).toEqual(['next']);
    expect(queued).toHaveLength(1);
    expect(() => queued[0]!()).toThrow('listener failed');
  });

  it('.signal is a real AbortSignal that aborts with the link and its reason, read before or after the abort', () => {
    const before = new AbortLink();
    const signal = before.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(before.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('barge-in');
    before.abort(reason);
    expect([signal.aborted, signal.reason]).toEqual([true, reason]);

    const after = new AbortLink();
    after.abort(reason);
    expect([after.signal.aborted, after.signal.reason]).toEqual([true, reason]);
  });
});

describe('a routed call makes no AbortSignal', () => {
  let server: LoopbackServer | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    await server?.close();
  });

  /** An OpenAI-compatible speech server on node:http alone: 4,800 bytes of PCM (0x01) per request. */
  async function start(): Promise<string> {
    server = await startLoopbackServer((_, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.alloc(4800, 1));
    });
    return `${server.origin}/v1`;
  }

  it.each([
    ['one candidate', ['a'], 'Your table is booked.'],
    ['two candidates (each attempt has its own abort scope)', ['a', 'b'], 'Your table is booked.'],
    [
      'two sentences (the second has its own abort scope, for its retry)',
      ['a'],
      'Your table is booked. See you at eight.',
    ],
  ])('tts() with %s: no AbortController hands out a signal; exact bytes', async (_, route, text) => {
    const baseUrl = await start();
    router = createRouter({
      providers: {
        a: { kind: 'openai-compatible', baseUrl, tts: { voices: { v: 'alloy' } } },
        b: { kind: 'openai-compatible', baseUrl, tts: { voices: { v: 'alloy' } } },
      },
      routes: { tts: { providers: route, strategy: 'priority' } },
    });
    const format = { encoding: 'pcm_s16le', sampleRate: 24_000 } as const;
    // The first call opens the connection and loads what loads lazily.
    for await (const _chunk of router.tts({ text: 'Warm.', voice: 'v', format })) {
      // read to the end
    }
    const reads = vi.spyOn(AbortController.prototype, 'signal', 'get');
    const bytes: number[] = [];
    let signalReads: number;
    try {
      for await (const chunk of router.tts({ text, voice: 'v', format })) {
        bytes.push(...chunk.data);
      }
    } finally {
      // (mockRestore() also clears the spy's calls)
      signalReads = reads.mock.calls.length;
      reads.mockRestore();
    }
    expect(signalReads).toBe(0);
    expect(bytes).toEqual(Array(4800 * text.split('. ').length).fill(1));
  });
});
