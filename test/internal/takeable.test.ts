import { describe, expect, it } from 'vitest';
import { isTakeable, nextOf, takeableOf } from '../../src/internal/takeable.js';

describe('takeableOf', () => {
  it('an iterator without take(): one next() in flight, its results in order by take(), then its failure', async () => {
    let calls = 0;
    const failure = new Error('cut');
    const inner: AsyncIterator<number> = {
      next: () => {
        calls++;
        if (calls <= 2) return Promise.resolve({ value: calls * 10, done: false });
        return Promise.reject(failure);
      },
    };
    const t = takeableOf(inner);
    expect(isTakeable(t)).toBe(true);
    expect(t.take()).toBeUndefined();
    expect(t.take()).toBeUndefined();
    expect(calls).toBe(1);
    await new Promise<void>((resolve) => t.onReadable(resolve));
    expect(t.take()).toEqual({ value: 10, done: false });
    expect(await nextOf(t)).toEqual({ value: 20, done: false });
    await expect(t.next()).rejects.toBe(failure);
    expect(calls).toBe(3);
  });

  it('gives back an iterator that already has take() as it is', () => {
    const own = {
      take: () => undefined,
      onReadable: () => {},
      next: () => Promise.resolve({ value: 1, done: false }),
    };
    expect(takeableOf(own)).toBe(own);
  });
});
