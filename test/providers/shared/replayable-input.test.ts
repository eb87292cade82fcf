import { describe, expect, it } from 'vitest';
import { ReplayableInput } from '../../../src/providers/shared/replayable-input.js';

/** A caller's stream of `items`, each read on demand; the read of item `holdAt` waits for `release()`. */
function source(items: readonly string[], holdAt = -1) {
  const seen = { reads: 0, returns: 0 };
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let i = 0;
  const iterator: AsyncIterator<string> = {
    async next() {
      seen.reads++;
      if (i === holdAt) await held;
      return i < items.length ? { value: items[i++]!, done: false } : { value: undefined, done: true };
    },
    async return() {
      seen.returns++;
      return { value: undefined, done: true };
    },
  };
  return { iterable: { [Symbol.asyncIterator]: () => iterator }, seen, release };
}

/** Reads `n` items of `iterator`. */
async function take(iterator: AsyncIterator<string>, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const step = await iterator.next();
    if (step.done) break;
    out.push(step.value);
  }
  return out;
}

const open = (input: ReplayableInput<string>) => input.pass()[Symbol.asyncIterator]();

describe('ReplayableInput: the caller input kept until the server answered, replayed on a new pass', () => {
  it('a new pass gives the items kept, then the rest; the caller is read once per item', async () => {
    const caller = source(['a', 'b', 'c', 'd']);
    const input = new ReplayableInput(caller.iterable);
    const first = open(input);
    expect(await take(first, 2)).toEqual(['a', 'b']);
    const second = open(input);
    expect(await first.next()).toEqual({ value: undefined, done: true });
    expect(await take(second, 10)).toEqual(['a', 'b', 'c', 'd']);
    expect(caller.seen).toEqual({ reads: 5, returns: 0 });
  });

  it('an item whose read was pending on the ended pass goes to the new pass, once', async () => {
    const caller = source(['a', 'b', 'c'], 1);
    const input = new ReplayableInput(caller.iterable);
    const first = open(input);
    expect(await first.next()).toEqual({ value: 'a', done: false });
    const pending = first.next();
    const second = open(input);
    const replay = take(second, 10);
    caller.release();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(await replay).toEqual(['a', 'b', 'c']);
    expect(caller.seen.reads).toBe(4);
  });

  it('settle() mid-replay: the kept items not yet read still come first; later passes do not repeat', async () => {
    const caller = source(['a', 'b', 'c', 'd']);
    const input = new ReplayableInput(caller.iterable);
    expect(await take(open(input), 3)).toEqual(['a', 'b', 'c']);
    const second = open(input);
    expect(await take(second, 1)).toEqual(['a']);
    input.settle();
    expect(input.replayable).toBe(false);
    expect(await take(second, 2)).toEqual(['b', 'c']);
    const third = open(input);
    expect(await take(third, 10)).toEqual(['d']);
  });

  it("the caller's error is kept: every pass throws it after the items", async () => {
    const boom = new Error('tokens failed');
    let n = 0;
    const failing: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (n++ === 0) return { value: 'a', done: false };
          throw boom;
        },
      }),
    };
    const input = new ReplayableInput(failing);
    const first = open(input);
    expect(await first.next()).toEqual({ value: 'a', done: false });
    await expect(first.next()).rejects.toBe(boom);
    const second = open(input);
    expect(await second.next()).toEqual({ value: 'a', done: false });
    await expect(second.next()).rejects.toBe(boom);
    expect(n).toBe(2);
  });

  it("a pass's return() leaves the caller's stream open; close() returns it once, and not after its end", async () => {
    const caller = source(['a', 'b']);
    const input = new ReplayableInput(caller.iterable);
    const first = open(input);
    await first.next();
    await first.return!();
    expect(caller.seen.returns).toBe(0);
    input.close();
    input.close();
    expect(caller.seen.returns).toBe(1);

    const ended = source(['a']);
    const done = new ReplayableInput(ended.iterable);
    expect(await take(open(done), 10)).toEqual(['a']);
    done.close();
    expect(ended.seen.returns).toBe(0);
  });
});
