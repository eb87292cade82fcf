import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/provider-error.js';
import { SentenceQueue } from '../../src/routing/tts-sentence-queue.js';

/** A source the test feeds by hand: push items, end it, or fail it. */
function handSource<T>() {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  async function* source(): AsyncGenerator<T> {
    for (;;) {
      const item = items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return {
    source,
    push: (item: T) => {
      items.push(item);
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
    fail: (error: unknown) => {
      failure = error;
      poke();
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SentenceQueue.drain()', () => {
  it('gives chunks buffered before the reader came, then those handed to the waiting reader, then the end', async () => {
    const src = handSource<string>();
    const queue = new SentenceQueue(() => src.source(), new AbortController().signal, 0);
    src.push('a');
    src.push('b');
    await queue.firstChunk;
    await turn();
    const it = queue.drain();
    expect(await it.next()).toEqual({ value: 'a', done: false });
    expect(await it.next()).toEqual({ value: 'b', done: false });
    const waiting = it.next();
    src.push('c');
    expect(await waiting).toEqual({ value: 'c', done: false });
    const last = it.next();
    src.end();
    expect(await last).toEqual({ value: undefined, done: true });
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it("throws the request's error after the chunks before it, once; later next() calls are done", async () => {
    const src = handSource<string>();
    const queue = new SentenceQueue(() => src.source(), new AbortController().signal, 0);
    src.push('a');
    src.fail(new ProviderError('boom', { provider: 'p', status: 500, retryable: true }));
    await turn();
    const it = queue.drain();
    expect(await it.next()).toEqual({ value: 'a', done: false });
    await expect(it.next()).rejects.toThrow('boom');
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects a reader already waiting when the request fails', async () => {
    const src = handSource<string>();
    const queue = new SentenceQueue(() => src.source(), new AbortController().signal, 0);
    const it = queue.drain();
    const waiting = it.next();
    src.fail(new RangeError('cut'));
    await expect(waiting).rejects.toThrow(RangeError);
  });

  it('is done after return(), whatever arrives later; for await reads it to the end', async () => {
    const src = handSource<string>();
    const queue = new SentenceQueue(() => src.source(), new AbortController().signal, 0);
    src.push('a');
    await turn();
    const it = queue.drain();
    expect(await it.return!()).toEqual({ value: undefined, done: true });
    src.push('b');
    expect(await it.next()).toEqual({ value: undefined, done: true });

    const again = handSource<string>();
    const second = new SentenceQueue(() => again.source(), new AbortController().signal, 0);
    again.push('x');
    again.push('y');
    again.end();
    const seen: string[] = [];
    for await (const item of second.drain()) seen.push(item);
    expect(seen).toEqual(['x', 'y']);
  });
});
