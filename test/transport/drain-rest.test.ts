import { describe, expect, it } from 'vitest';
import { AFTER_END_MS, drainRest } from '../../src/transport/drain-rest.js';
import { deferred } from '../helpers/deferred.js';

/** An iterator of `count` events that records its calls; `ended` resolves on done or return(). */
function recorded(count: number) {
  const calls: string[] = [];
  const ended = deferred<string>();
  let i = 0;
  const iterator: AsyncIterator<number> = {
    next: async () => {
      calls.push('next');
      if (i < count) return { value: i++, done: false };
      ended.resolve('done');
      return { value: undefined, done: true };
    },
    return: async () => {
      calls.push('return');
      ended.resolve('return');
      return { value: undefined, done: true };
    },
  };
  return { iterator, calls, ended: ended.promise };
}

describe('drainRest', () => {
  it('reads a short rest to its end and does not close it', async () => {
    const rest = recorded(3);
    drainRest(rest.iterator);
    expect(await rest.ended).toBe('done');
    expect(rest.calls).toEqual(['next', 'next', 'next', 'next']);
  });

  it('gives the response AFTER_END_MS (1 s) to end, once, before reading the rest', async () => {
    const rest = recorded(0);
    const asked: number[] = [];
    drainRest(rest.iterator, { endWithin: (ms) => asked.push(ms) });
    expect(asked).toEqual([1_000]);
    expect(AFTER_END_MS).toBe(1_000);
    expect(await rest.ended).toBe('done');
  });

  it('closes the body after 64 more events instead of reading on', async () => {
    const rest = recorded(1_000);
    drainRest(rest.iterator);
    expect(await rest.ended).toBe('return');
    expect(rest.calls.filter((c) => c === 'next')).toHaveLength(65);
    expect(rest.calls.at(-1)).toBe('return');
  });

  it('stops at a failing body without an unhandled rejection (vitest fails the run on one)', async () => {
    let nexts = 0;
    const failed = deferred<void>();
    drainRest({
      next: () => {
        nexts++;
        failed.resolve();
        return Promise.reject(new Error('socket reset'));
      },
    });
    await failed.promise;
    await new Promise((r) => setImmediate(r));
    expect(nexts).toBe(1);
  });
});
