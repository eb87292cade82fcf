import { describe, expect, it } from 'vitest';
import { ReplayableAudio } from '../../src/routing/replayable-audio.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

describe('ReplayableAudio.readAt', () => {
  it('is the read time of the chunk holding the byte before an offset, the last one beyond what was read', async () => {
    let now = 1_000;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(4); // bytes 0-3, read at 1000
      now = 1_100;
      yield new Uint8Array(4); // bytes 4-7, read at 1100
      now = 1_250;
      yield new Uint8Array(2); // bytes 8-9, read at 1250
      now = 9_999;
    }
    const audio = new ReplayableAudio(chunks(), FORMAT, undefined, () => now);
    for await (const _ of audio.reader()) {
      // read all three chunks
    }
    expect([0, 1, 4, 5, 8, 9, 10, 64].map((offset) => audio.readAt(offset))).toEqual([
      undefined,
      1_000,
      1_000,
      1_100,
      1_100,
      1_250,
      1_250,
      1_250,
    ]);
    audio.trimBefore(8);
    // Bytes 0-7 are trimmed: their read times are gone.
    expect([4, 8, 9, 10].map((offset) => audio.readAt(offset))).toEqual([undefined, undefined, 1_250, 1_250]);
  });
});
