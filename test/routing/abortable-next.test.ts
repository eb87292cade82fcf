import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortableNext } from '../../src/routing/abortable-next.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { candidate, fakeRun } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** An iterator whose next() answers only when the test says so. */
function manualIterator<T>() {
  const pending: ((r: IteratorResult<T>) => void)[] = [];
  const iterator: AsyncIterator<T> = {
    next: () => new Promise((resolve) => pending.push(resolve)),
  };
  return { iterator, answer: (r: IteratorResult<T>) => pending.shift()!(r), pending };
}

/** Lets queued promise jobs run (no timer involved). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AbortableNext', () => {
  it('gives the iterator results in order while the signal is not aborted', async () => {
    const { iterator, answer } = manualIterator<number>();
    const pull = new AbortableNext(new AbortController().signal);
    const first = pull.next(iterator);
    answer({ value: 1, done: false });
    expect(await first).toEqual({ value: 1, done: false });
    const second = pull.next(iterator);
    answer({ value: undefined, done: true });
    expect(await second).toEqual({ value: undefined, done: true });
  });

  it("resolves a pending pull with 'aborted' when the signal aborts, though the iterator never answers", async () => {
    const { iterator, pending } = manualIterator<number>();
    const abort = new AbortController();
    const pull = new AbortableNext(abort.signal);
    const p = pull.next(iterator);
    abort.abort();
    expect(await p).toBe('aborted');
    expect(pending).toHaveLength(1);
  });

  it("an item already there wins over an abort that came first, as with Promise.race; then 'aborted'", async () => {
    const abort = new AbortController();
    abort.abort();
    const pull = new AbortableNext(abort.signal);
    const ready: AsyncIterator<number> = { next: async () => ({ value: 7, done: false }) };
    expect(await pull.next(ready)).toEqual({ value: 7, done: false });
    const { iterator } = manualIterator<number>();
    expect(await pull.next(iterator)).toBe('aborted');
  });

  it("passes the iterator's rejection on", async () => {
    const pull = new AbortableNext(new AbortController().signal);
    const failing: AsyncIterator<number> = { next: () => Promise.reject(new RangeError('bad frame')) };
    await expect(pull.next(failing)).rejects.toThrow(RangeError);
  });

  it('keeps no item it delivered: 40 pulls on one signal leave at most the last one reachable', async () => {
    const abort = new AbortController();
    const pull = new AbortableNext(abort.signal);
    const refs: WeakRef<object>[] = [];
    let n = 0;
    const iterator: AsyncIterator<object> = {
      next: async () => {
        const item = { n: n++ };
        refs.push(new WeakRef(item));
        return { value: item, done: false };
      },
    };
    for (let i = 0; i < 40; i++) await pull.next(iterator);
    await turn();
    gc();
    expect(refs.filter((r) => r.deref() !== undefined).length).toBeLessThanOrEqual(1);
    expect(abort.signal.aborted).toBe(false);
  });
});

describe('a routed stream after its first item', () => {
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
});
