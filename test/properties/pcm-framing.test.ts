/**
 * Property tests of PCM framing (issue 12): audio cut on arbitrary byte boundaries (half a
 * sample, half a frame) is re-framed to whole samples without padding, and chunk boundaries
 * never change the output bytes, through framing alone, framing + transcoding (PCM s16le, f32le,
 * mu-law, A-law) and framing + resampling.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAudioConverter } from '../../src/audio/audio-converter.js';
import { frameSamples, SampleFramer } from '../../src/audio/sample-framer.js';
import type { AudioEncoding } from '../../src/types/audio.js';
import { cutsArb, outcome, RUNS, source, splitAt } from './chunks.js';

const ENCODINGS: AudioEncoding[] = ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'];
const BYTES: Record<AudioEncoding, number> = { pcm_s16le: 2, pcm_f32le: 4, mulaw: 1, alaw: 1 };
const encodingArb = fc.constantFrom(...ENCODINGS);
const RATES = [8000, 16000, 22050, 24000, 44100, 48000];

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Framed and converted: every chunk of `chunks` through a framer, then `convert`, then the flush. */
async function pipeline(
  chunks: readonly Uint8Array[],
  from: AudioEncoding,
  convert: (framed: Uint8Array) => Uint8Array,
  flush: () => Uint8Array,
): Promise<{ out: Uint8Array; dropped: number }> {
  let dropped = 0;
  const framed = await outcome(frameSamples(source(chunks), { encoding: from }, (n) => (dropped = n)));
  expect(framed.error).toBeUndefined();
  return { out: concat([...framed.items.map(convert), flush()]), dropped };
}

describe('PCM framing (property)', () => {
  it('SampleFramer: whole frames only, never padded; the output is the input minus its stray tail, whatever the cuts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), encodingArb, cutsArb, (bytes, encoding, cuts) => {
        // Mono: voxroute's audio has one channel (another count is a RangeError).
        const framer = new SampleFramer({ encoding, channels: 1 });
        const unit = BYTES[encoding];
        const out: Uint8Array[] = [];
        for (const chunk of splitAt(bytes, cuts)) {
          const whole = framer.push(chunk).slice();
          expect(whole.byteLength % unit).toBe(0);
          expect(framer.pendingBytes).toBeLessThan(unit);
          out.push(whole);
        }
        const tail = bytes.byteLength % unit;
        expect(framer.end()).toEqual({ droppedBytes: tail });
        expect(Array.from(concat(out))).toEqual(Array.from(bytes.subarray(0, bytes.byteLength - tail)));
      }),
      RUNS,
    );
  });

  it('framing + transcoding: the same output bytes for any cuts as for one chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 400 }),
        encodingArb,
        encodingArb,
        cutsArb,
        async (bytes, from, to, cuts) => {
          const run = async (chunks: Uint8Array[]) => {
            const conv = await createAudioConverter(
              { encoding: from, sampleRate: 16000 },
              { encoding: to, sampleRate: 16000 },
            );
            try {
              return await pipeline(
                chunks,
                from,
                (d) => conv.push(d).slice(),
                () => conv.flush(),
              );
            } finally {
              conv.close();
            }
          };
          const whole = await run([bytes]);
          const split = await run(splitAt(bytes, cuts));
          expect(split.dropped).toBe(whole.dropped);
          expect(Buffer.from(split.out).equals(Buffer.from(whole.out))).toBe(true);
          const samples = Math.floor(bytes.byteLength / BYTES[from]);
          expect(whole.out.byteLength).toBe(samples * BYTES[to]);
        },
      ),
      RUNS,
    );
  });

  it('framing + resampling: the same output bytes for any cuts, and round(N x to / from) samples in all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 1200 }),
        fc.constantFrom(...RATES),
        fc.constantFrom(...RATES),
        cutsArb,
        async (bytes, fromRate, toRate, cuts) => {
          const run = async (chunks: Uint8Array[]) => {
            const conv = await createAudioConverter(
              { encoding: 'pcm_s16le', sampleRate: fromRate },
              { encoding: 'pcm_s16le', sampleRate: toRate },
            );
            try {
              return await pipeline(
                chunks,
                'pcm_s16le',
                (d) => conv.push(d).slice(),
                () => conv.flush(),
              );
            } finally {
              conv.close();
            }
          };
          const whole = await run([bytes]);
          const split = await run(splitAt(bytes, cuts));
          const samples = Math.floor(bytes.byteLength / 2);
          expect(whole.out.byteLength / 2).toBe(Math.round((samples * toRate) / fromRate));
          expect(Buffer.from(split.out).equals(Buffer.from(whole.out))).toBe(true);
        },
      ),
      { ...RUNS, numRuns: Math.ceil(RUNS.numRuns / 2) },
    );
  });
});
