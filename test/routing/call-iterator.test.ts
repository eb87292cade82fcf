import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/abort-error.js';
import { MidStreamError } from '../../src/errors/mid-stream-error.js';
import { ProviderError } from '../../src/errors/provider-error.js';
import type { AbortSource } from '../../src/internal/abort-link.js';
import type { Takeable } from '../../src/internal/takeable.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { candidate, fakeRun } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Lets queued promise jobs run (no timer involved). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A provider stream the test feeds by hand, with the synchronous side of Takeable; counts its
 * `next()` calls (the call's iterator should not need them) and its `return()` calls.
 */
function handStream<T>() {
  const items: T[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const counts = { next: 0, take: 0, return: 0 };
  const iterator: Takeable<T> & AsyncIterable<T> = {
    take() {
      counts.take++;
      const item = items.shift();
      if (item !== undefined) return { value: item, done: false };
      if (failure) {
        const { error } = failure;
        failure = undefined;
        ended = true;
        throw error;
      }
      if (ended) return { value: undefined, done: true };
      return undefined;
    },
    onReadable(w) {
      wake = w;
    },
    next() {
      counts.next++;
      const r = iterator.take();
      if (r) return Promise.resolve(r);
      return new Promise((resolve, reject) => {
        wake = () => {
          try {
            resolve(iterator.take() ?? { value: undefined as never, done: true });
          } catch (error) {
            reject(error);
          }
        };
      });
    },
    return() {
      counts.return++;
      ended = true;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return {
    iterator,
    counts,
    push: (...more: T[]) => {
      items.push(...more);
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
    fail: (error: unknown) => {
      failure = { error };
      poke();
    },
  };
}

describe("the call's iterator after the first item", () => {
  it("takes a takeable attempt's items by plain calls, in order, buffered or woken, without its next() after the first", async () => {
    const src = handStream<{ n: number }>();
    src.push({ n: 0 });
    const stream = routedStream(fakeRun([candidate('a', () => src.iterator)]));
    const it = stream[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
    expect(src.counts.next).toBe(1); // the first item goes through the attempt loop
    src.push({ n: 1 }, { n: 2 });
    expect(await it.next()).toEqual({ value: { n: 1 }, done: false });
    expect(await it.next()).toEqual({ value: { n: 2 }, done: false });
    const waiting = it.next();
    await turn();
    src.push({ n: 3 });
    expect(await waiting).toEqual({ value: { n: 3 }, done: false });
    const last = it.next();
    src.end();
    expect(await last).toEqual({ value: undefined, done: true });
    expect(src.counts.next).toBe(1);
    const result = await stream.result;
    expect(result.provider).toBe('a');
    expect(result.attempts.map((a) => a.outcome)).toEqual(['success']);
  });

  it("a takeable attempt's failure after output ends the call with MidStreamError after the items before it", async () => {
    const src = handStream<{ n: number }>();
    src.push({ n: 0 });
    const stream = routedStream(fakeRun([candidate('a', () => src.iterator)]));
    const it = stream[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
    src.push({ n: 1 });
    src.fail(new ProviderError('overloaded', { provider: 'a', status: 503, retryable: true }));
    expect(await it.next()).toEqual({ value: { n: 1 }, done: false });
    const error = await it.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).partialOutput).toBe(true);
    await expect(stream.result).rejects.toBe(error);
  });

  it.each([
    ['takeable', true],
    ['plain async', false],
  ])(
    'a pending next() ends with AbortError when the caller aborts, though a %s provider never answers',
    async (_kind, takeable) => {
      const controller = new AbortController();
      const src = handStream<{ n: number }>();
      src.push({ n: 0 });
      const plain: AsyncIterable<{ n: number }> = {
        [Symbol.asyncIterator]: () => ({
          next: () => src.iterator.next(),
          return: () => src.iterator.return!(),
        }),
      };
      const stream = routedStream(
        fakeRun([candidate('a', () => (takeable ? src.iterator : plain))], { signal: controller.signal }),
      );
      const it = stream[Symbol.asyncIterator]();
      expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
      const pending = it.next();
      await turn();
      controller.abort();
      const error = await pending.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(AbortError.isInstance(error)).toBe(true);
      expect(src.counts.return).toBe(1);
      // Nothing is delivered after the abort, even an item that comes now.
      src.push({ n: 1 });
      expect(await it.next()).toEqual({ value: undefined, done: true });
      const failed = await stream.result.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failed).toBe(error);
    },
  );

  it("an attempt that wakes the reader inside the abort (it drops its queue): the call's clean-up runs after the caller's abort() returns, not inside it", async () => {
    const controller = new AbortController();
    const src = handStream<{ n: number }>();
    src.push({ n: 0 });
    const stream = routedStream(
      fakeRun(
        [
          candidate('a', (attempt) => {
            // Like the transport's exchange: the attempt's abort ends the body and wakes the reader.
            attempt.signal.addEventListener('abort', () => src.end());
            return src.iterator;
          }),
        ],
        { signal: controller.signal },
      ),
    );
    const it = stream[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
    const pending = it.next();
    await turn();
    let settled = false;
    stream.result.then(
      () => (settled = true),
      () => (settled = true),
    );
    controller.abort();
    // Synchronously after abort(): the provider's stream is not closed yet (drive's clean-up
    // has not run inside the caller's call stack).
    const returnsInsideAbort = src.counts.return;
    await expect(pending).rejects.toThrow(AbortError);
    expect(returnsInsideAbort).toBe(0);
    expect(src.counts.return).toBe(1);
    await turn();
    expect(settled).toBe(true);
  });

  it('delivers no item buffered before an abort', async () => {
    const controller = new AbortController();
    const src = handStream<{ n: number }>();
    src.push({ n: 0 });
    const stream = routedStream(fakeRun([candidate('a', () => src.iterator)], { signal: controller.signal }));
    const it = stream[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
    const takes = src.counts.take;
    src.push({ n: 1 }, { n: 2 });
    controller.abort();
    await expect(it.next()).rejects.toThrow(AbortError);
    expect(src.counts.take).toBe(takes);
  });

  it('return() while a next() waits: the pending next() is done, the attempt aborted and closed, the result resolved', async () => {
    const src = handStream<{ n: number }>();
    src.push({ n: 0 });
    let signal: AbortSource | undefined;
    const stream = routedStream(
      fakeRun([
        candidate('a', (attempt) => {
          signal = attempt.signal;
          return src.iterator;
        }),
      ]),
    );
    const it = stream[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: { n: 0 }, done: false });
    const pending = it.next();
    await turn();
    const returned = it.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(await returned).toEqual({ value: undefined, done: true });
    expect(signal?.aborted).toBe(true);
    expect(src.counts.return).toBe(1);
    const result = await stream.result;
    expect(result.attempts.map((a) => a.outcome)).toEqual(['aborted']);
  });

  it('keeps no item the caller already received (each pull used to stay reachable until the call ended)', async () => {
    const refs: WeakRef<object>[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const c = candidate('a', async function* () {
      for (let i = 0; i < 40; i++) {
        const item = { text: `t${i}` };
        refs.push(new WeakRef(item));
        yield item;
      }
      // The provider keeps the stream open: the call is still running when memory is checked.
      await held;
    });
    const iterator = routedStream(fakeRun([c]))[Symbol.asyncIterator]();
    for (let i = 0; i < 40; i++) {
      const r = await iterator.next();
      expect(r).toEqual({ value: { text: `t${i}` }, done: false });
    }
    const last = iterator.next();
    await turn();
    gc();
    // The first item stays with the attempt's record; no other item the caller had is kept.
    const alive = refs.map((r, i) => (r.deref() === undefined ? -1 : i)).filter((i) => i >= 0);
    expect(alive.filter((i) => i > 0 && i < 38)).toEqual([]);
    release();
    expect(await last).toEqual({ value: undefined, done: true });
  });

  it('keeps no item of a takeable attempt the caller already received', async () => {
    const refs: WeakRef<object>[] = [];
    const src = handStream<{ n: number }>();
    const push = (n: number) => {
      const item = { n };
      refs.push(new WeakRef(item));
      src.push(item);
    };
    push(0);
    const iterator = routedStream(fakeRun([candidate('a', () => src.iterator)]))[Symbol.asyncIterator]();
    for (let n = 0; n < 40; n++) {
      const r = iterator.next();
      if (n > 0) push(n);
      expect((await r).value).toEqual({ n });
    }
    const last = iterator.next();
    await turn();
    gc();
    const alive = refs.map((r, i) => (r.deref() === undefined ? -1 : i)).filter((i) => i >= 0);
    expect(alive.filter((i) => i > 0 && i < 38)).toEqual([]);
    src.end();
    expect(await last).toEqual({ value: undefined, done: true });
  });
});
