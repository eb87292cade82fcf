import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/errors/index.js';
import { collectAudio } from '../../../src/providers/shared/collect-audio.js';
import { fromChunks } from './helpers.js';

describe('collectAudio', () => {
  it('joins every chunk in order', async () => {
    const out = await collectAudio(
      fromChunks([new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array([3])]),
      new AbortController().signal,
    );
    expect([...out]).toEqual([1, 2, 3]);
  });

  it('rejects with AbortError while the caller iterator is still waiting, and closes it', async () => {
    const controller = new AbortController();
    let closed = false;
    let pulled!: () => void;
    const pulledOnce = new Promise<void>((resolve) => {
      pulled = resolve;
    });
    const audio: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          pulled();
          return new Promise<IteratorResult<Uint8Array>>(() => {});
        },
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const pending = collectAudio(audio, controller.signal);
    await pulledOnce;
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(closed).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await collectAudio(fromChunks([new Uint8Array([1])]), controller.signal).catch(
      (e: unknown) => e,
    );
    expect(AbortError.isInstance(error)).toBe(true);
  });
});
