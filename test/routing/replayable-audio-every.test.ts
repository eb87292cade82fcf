import { describe, expect, it } from 'vitest';
import { ReplayableAudio } from '../../src/routing/replayable-audio.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

async function* chunks(): AsyncGenerator<Uint8Array> {
  yield Uint8Array.of(1, 1, 1, 1);
  yield Uint8Array.of(1, 1, 0, 0);
  yield Uint8Array.of(0, 0, 0, 0);
}

describe('ReplayableAudio.everyFrom', () => {
  it('tests the bytes read from an offset on, chunk by chunk, the first one cut at the offset', async () => {
    const audio = new ReplayableAudio(chunks(), FORMAT);
    for await (const _ of audio.reader()) {
      // read all three chunks
    }
    const seen: number[][] = [];
    const zero = (b: Uint8Array) => {
      seen.push([...b]);
      return b.every((x) => x === 0);
    };
    expect(audio.everyFrom(6, zero)).toBe(true);
    expect(seen).toEqual([
      [0, 0],
      [0, 0, 0, 0],
    ]);
    expect(audio.everyFrom(5, zero)).toBe(false);
    expect(audio.everyFrom(12, zero)).toBe(true);
    audio.trimBefore(8);
    seen.length = 0;
    // Trimmed audio is not looked at.
    expect(audio.everyFrom(0, zero)).toBe(true);
    expect(seen).toEqual([[0, 0, 0, 0]]);
  });
});
