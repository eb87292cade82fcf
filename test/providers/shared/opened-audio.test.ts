import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { rawBodyAudio } from '../../../src/providers/shared/opened-audio.js';
import { OpenedStream } from '../../../src/providers/shared/opened-stream.js';
import type { ProviderAudio } from '../../../src/providers/types.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { handBody } from '../../helpers/hand-body.js';

const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };

async function collect(audio: AsyncIterable<ProviderAudio>): Promise<number[][]> {
  const out: number[][] = [];
  for await (const chunk of audio) {
    expect(chunk.format).toBe(PCM24);
    out.push([...chunk.data]);
  }
  return out;
}

describe('OpenedStream over a raw body', () => {
  it('sends the request at the first read, not before, and passes the chunks (empty ones skipped) without the body next()', async () => {
    const hand = handBody();
    let opened = 0;
    const audio = new OpenedStream(async () => {
      opened++;
      return rawBodyAudio(hand.response, PCM24);
    });
    expect(opened).toBe(0);
    const reading = collect(audio);
    expect(opened).toBe(1);
    await new Promise((r) => setImmediate(r));
    hand.push([1, 2], [], [3, 4]);
    hand.push([5, 6]);
    hand.end();
    expect(await reading).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(hand.counts).toEqual({ next: 0, return: 0, cancel: 0 });
  });

  it("throws open()'s failure at the read that waited for it, then is done", async () => {
    const failure = new ProviderError('unavailable', { provider: 'p', status: 503, retryable: true });
    const audio = new OpenedStream<ProviderAudio>(() => Promise.reject(failure));
    await expect(audio.next()).rejects.toBe(failure);
    expect(await audio.next()).toEqual({ value: undefined, done: true });
  });

  it('return() while the request is on its way: the answer is cancelled once it comes, nothing is read', async () => {
    const hand = handBody();
    let answer!: (it: AsyncIterator<ProviderAudio>) => void;
    const audio = new OpenedStream<ProviderAudio>(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    expect(audio.take()).toBeUndefined();
    expect(await audio.return()).toEqual({ value: undefined, done: true });
    answer(rawBodyAudio(hand.response, PCM24));
    await new Promise((r) => setImmediate(r));
    expect(hand.counts.cancel).toBe(1);
    expect(audio.take()).toEqual({ value: undefined, done: true });
  });

  it('stopping early cancels the response', async () => {
    const hand = handBody();
    hand.push([1, 2], [3, 4]);
    const audio = new OpenedStream(async () => rawBodyAudio(hand.response, PCM24));
    for await (const chunk of audio) {
      expect([...chunk.data]).toEqual([1, 2]);
      break;
    }
    expect(hand.counts.cancel).toBe(1);
  });

  it('reads an answer without a synchronous side one next() at a time, in order', async () => {
    async function* answer(): AsyncGenerator<ProviderAudio> {
      yield { data: Uint8Array.from([1, 2]), format: PCM24 };
      await new Promise((r) => setImmediate(r));
      yield { data: Uint8Array.from([3, 4]), format: PCM24 };
    }
    const audio = new OpenedStream(async () => answer());
    expect(await collect(audio)).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});

describe('OpenedStream returned while its request opens', () => {
  it('settles a next() that waits for open() with the end, and closes the answer that comes later', async () => {
    let answer!: (inner: AsyncIterator<number>) => void;
    const stream = new OpenedStream<number>(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    const pending = stream.next();
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    expect(await pending).toEqual({ value: undefined, done: true });
    let closed = 0;
    answer({
      next: () => Promise.resolve({ value: 1, done: false }),
      return: () => {
        closed++;
        return Promise.resolve({ value: undefined, done: true });
      },
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(closed).toBe(1);
    expect(stream.take()).toEqual({ value: undefined, done: true });
  });
});
