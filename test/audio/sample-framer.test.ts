import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameSamples, SampleFramer } from '../../src/audio/sample-framer.js';
import { concatBytes as concat } from '../helpers/index.js';
import { SEEDED } from '../helpers/property-seed.js';

const s16 = { encoding: 'pcm_s16le', sampleRate: 24000 } as const;

function bytes(n: number, start = 0): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (start + i) & 0xff);
}

async function* chunksOf(data: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    yield data.subarray(at, at + size);
    at += size;
  }
}

describe('SampleFramer', () => {
  it('C09: odd-length PCM16 chunks (3, 4, 5 bytes) are re-framed into whole samples of 2, 4, 6 bytes', () => {
    const data = bytes(12, 0xb0);
    const framer = new SampleFramer(s16);
    const out = [
      framer.push(data.subarray(0, 3)),
      framer.push(data.subarray(3, 7)),
      framer.push(data.subarray(7, 12)),
    ];
    expect(out.map((c) => c.byteLength)).toEqual([2, 4, 6]);
    expect(Array.from(concat(out))).toEqual(Array.from(data));
    expect(framer.end()).toEqual({ droppedBytes: 0 });
  });

  it('C09: 13 one-byte chunks yield nothing until a sample is whole, and the stray 13th byte is dropped, not padded', async () => {
    const data = bytes(13, 0xb0);
    const dropped: number[] = [];
    const yielded: Uint8Array[] = [];
    const framer = new SampleFramer(s16);
    const perPush: number[] = [];
    for (let i = 0; i < 13; i++) perPush.push(framer.push(data.subarray(i, i + 1)).byteLength);
    expect(perPush).toEqual([0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0]);
    expect(framer.pendingBytes).toBe(1);
    expect(framer.end()).toEqual({ droppedBytes: 1 });
    expect(framer.end()).toEqual({ droppedBytes: 0 });

    for await (const chunk of frameSamples(chunksOf(data, Array(13).fill(1)), s16, (n) => dropped.push(n))) {
      yielded.push(chunk);
    }
    expect(yielded.map((c) => c.byteLength)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(Array.from(concat(yielded))).toEqual(Array.from(data.subarray(0, 12)));
    expect(dropped).toEqual([1]);
  });

  it('C09: the unit is 4 bytes for f32, 1 byte (no carry) for mu-law', () => {
    const f32 = new SampleFramer({ encoding: 'pcm_f32le' });
    expect(f32.frameBytes).toBe(4);
    expect(f32.push(bytes(7)).byteLength).toBe(4);
    expect(f32.end()).toEqual({ droppedBytes: 3 });

    const mulaw = new SampleFramer({ encoding: 'mulaw' });
    const odd = bytes(5);
    expect(mulaw.frameBytes).toBe(1);
    expect(mulaw.push(odd)).toBe(odd);
    expect(mulaw.pendingBytes).toBe(0);
  });

  it('C09: reset() clears the carry when a new utterance starts', () => {
    const framer = new SampleFramer(s16);
    framer.push(Uint8Array.of(0xaa));
    framer.reset();
    expect(framer.pendingBytes).toBe(0);
    expect(Array.from(framer.push(Uint8Array.of(1, 2)))).toEqual([1, 2]);
  });

  it('takes an AudioFormat object literal as written in the docs (sampleRate is accepted, framing ignores it)', () => {
    const framer = new SampleFramer({ encoding: 'pcm_s16le', sampleRate: 24000 });
    expect(framer.frameBytes).toBe(2);
    expect(new SampleFramer({ encoding: 'pcm_f32le', sampleRate: 48000, channels: 1 }).frameBytes).toBe(4);
  });

  it('returns a view of the input, not a copy, when there is no carry', () => {
    const framer = new SampleFramer(s16);
    const input = bytes(7);
    const out = framer.push(input);
    expect(out.buffer).toBe(input.buffer);
    expect(out.byteOffset).toBe(0);
    expect(out.byteLength).toBe(6);
    const even = bytes(4);
    expect(new SampleFramer(s16).push(even)).toBe(even);
  });

  it('a channel count other than 1 is a RangeError naming it (voxroute is mono)', () => {
    // channels 2 framed 4-byte stereo frames, which no voxroute format can state.
    for (const channels of [2, 0]) {
      expect(() => new SampleFramer({ encoding: 'pcm_s16le', channels } as never)).toThrow(
        new RangeError(`SampleFramer: format.channels must be 1 (voxroute's audio is mono), got ${channels}`),
      );
    }
  });

  it('a missing or wrong format, or bytes that are not a Uint8Array: an error naming the argument', () => {
    // They were "Cannot read properties of undefined (reading 'channels')" and "... of null (reading 'byteLength')".
    expect(() => new (SampleFramer as new (format?: unknown) => SampleFramer)()).toThrow(
      new TypeError(
        'new SampleFramer(format): format must be an AudioFormat ({ encoding, sampleRate }), got undefined',
      ),
    );
    expect(() => new SampleFramer(null as never)).toThrow(
      new TypeError(
        'new SampleFramer(format): format must be an AudioFormat ({ encoding, sampleRate }), got null',
      ),
    );
    expect(() => new SampleFramer({ encoding: 'mp3' } as never)).toThrow(
      new RangeError(
        "SampleFramer: format.encoding must be one of pcm_s16le, pcm_f32le, mulaw, alaw, got 'mp3'",
      ),
    );
    const framer = new SampleFramer(s16);
    expect(() => framer.push(null as never)).toThrow(
      new TypeError('SampleFramer.push(bytes): bytes must be a Uint8Array, got null'),
    );
    expect(() => framer.push([1, 2] as never)).toThrow(
      new TypeError('SampleFramer.push(bytes): bytes must be a Uint8Array, got an array'),
    );
    expect(framer.push(Buffer.from([1, 2, 3])).byteLength).toBe(2);
  });

  it('property: any chunking re-frames to the same bytes, every chunk a multiple of the frame size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          { encoding: 'pcm_s16le' as const, channels: 1 },
          { encoding: 'pcm_f32le' as const, channels: 1 },
          { encoding: 'mulaw' as const, channels: 1 },
        ),
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat({ max: 40 }), { maxLength: 30 }),
        (format, data, cuts) => {
          const framer = new SampleFramer(format);
          const out: Uint8Array[] = [];
          let at = 0;
          for (const cut of [...cuts, data.byteLength]) {
            const end = Math.min(at + cut, data.byteLength);
            const chunk = framer.push(data.subarray(at, end));
            expect(chunk.byteLength % framer.frameBytes).toBe(0);
            out.push(chunk);
            at = end;
          }
          const tail = data.byteLength % framer.frameBytes;
          expect(framer.end()).toEqual({ droppedBytes: tail });
          expect(Array.from(concat(out))).toEqual(Array.from(data.subarray(0, data.byteLength - tail)));
        },
      ),
      SEEDED,
    );
  });
});
