import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import { ProviderError } from '../../src/errors/provider-error.js';
import type { ProviderAudio } from '../../src/providers/types.js';
import { SentenceQueue } from '../../src/routing/tts-sentence-queue.js';
import { CallerAudio } from '../../src/routing/tts-stream.js';
import type { AudioChunk, AudioFormat } from '../../src/types/audio.js';

const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

async function* audio(...chunks: number[][]): AsyncGenerator<ProviderAudio> {
  for (const c of chunks) yield { data: Uint8Array.from(c), format: PCM24 };
}

async function drained(queue: SentenceQueue<ProviderAudio, AudioChunk>): Promise<number[][]> {
  const out: number[][] = [];
  for await (const chunk of queue.drain()) {
    expect(chunk.format).toBe(PCM24);
    out.push([...chunk.data]);
  }
  return out;
}

describe('CallerAudio in the sentence pump', () => {
  it('hands whole samples through in order, re-framing a split sample, with no stage of its own', async () => {
    const step = () => new CallerAudio(PCM24, 'p');
    const queue = new SentenceQueue(
      () => audio([1, 2, 3], [], [4, 5, 6], [7, 8]),
      new AbortController().signal,
      0,
      step,
    );
    expect(await drained(queue)).toEqual([
      [1, 2],
      [3, 4, 5, 6],
      [7, 8],
    ]);
  });

  it('fails with ProtocolError when the provider ended without audio, after no chunk', async () => {
    const queue = new SentenceQueue(
      () => audio([]),
      new AbortController().signal,
      0,
      () => new CallerAudio(PCM24, 'p'),
    );
    await expect(drained(queue)).rejects.toBeInstanceOf(ProtocolError);
  });

  it('empty-answer: a stray byte alone (half a PCM s16le sample) fails with ProtocolError, as no byte does, and is reported dropped', async () => {
    const dropped: number[] = [];
    const queue = new SentenceQueue(
      () => audio([9]),
      new AbortController().signal,
      0,
      () => new CallerAudio(PCM24, 'p', (n) => dropped.push(n)),
    );
    const error = await drained(queue).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe(
      "Provider 'p' returned no audio (only 1 stray byte, less than one sample)",
    );
    expect((error as ProtocolError).provider).toBe('p');
    expect(dropped).toEqual([1]);
  });

  it('empty-answer: whole samples then a stray byte deliver the whole samples and drop the half one', async () => {
    const dropped: number[] = [];
    const queue = new SentenceQueue(
      () => audio([1, 2, 3, 4], [5]),
      new AbortController().signal,
      0,
      () => new CallerAudio(PCM24, 'p', (n) => dropped.push(n)),
    );
    expect(await drained(queue)).toEqual([[1, 2, 3, 4]]);
    expect(dropped).toEqual([1]);
  });

  it('retries a request that failed before its first chunk with a fresh step, reporting a stray byte once', async () => {
    let opened = 0;
    const dropped: number[] = [];
    async function* source(): AsyncGenerator<ProviderAudio> {
      opened++;
      if (opened === 1) {
        yield { data: Uint8Array.from([1]), format: PCM24 };
        throw new ProviderError('reset', { provider: 'p', retryable: true });
      }
      yield* audio([5, 6, 7]);
    }
    const queue = new SentenceQueue(
      source,
      new AbortController().signal,
      1,
      () => new CallerAudio(PCM24, 'p', (n) => dropped.push(n)),
    );
    expect(await drained(queue)).toEqual([[5, 6]]);
    expect(opened).toBe(2);
    expect(queue.retried).toBe(1);
    expect(dropped).toEqual([1]);
  });
});
