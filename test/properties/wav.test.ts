/**
 * Property tests of WAV header parsing and WAV body audio (issue 12): `WavReader` (audio/) and
 * `wavBodyAudio` (the provider layer for `response_format: 'wav'` bodies). Any valid WAV (fmt
 * layouts 16/18/40, other chunks before `data`, odd sizes padded, exact or placeholder `data`
 * sizes), cut anywhere, gives its format and exactly its audio; any other bytes give a typed
 * ProtocolError (never another throw, a hang, or audio labelled with a guessed format), and
 * chunk boundaries never change the outcome.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WavReader } from '../../src/audio/wav-reader.js';
import { ProtocolError } from '../../src/errors/index.js';
import { wavBodyAudio } from '../../src/providers/shared/wav-body-audio.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { type ChunkSpec, fmtBody, riffWave } from '../audio/wav-build.js';
import { cutsArb, outcome, RUNS, source, splitAt } from './chunks.js';

const TAGS = [
  { tag: 1, bits: 16, encoding: 'pcm_s16le' },
  { tag: 3, bits: 32, encoding: 'pcm_f32le' },
  { tag: 6, bits: 8, encoding: 'alaw' },
  { tag: 7, bits: 8, encoding: 'mulaw' },
] as const;

interface WavCase {
  bytes: Uint8Array;
  format: AudioFormat;
  audio: Uint8Array;
  /** Bytes the body lacks of an exact-size data chunk (0: complete). */
  truncated: number;
}

const wavArb: fc.Arbitrary<WavCase> = fc
  .record({
    kind: fc.constantFrom(...TAGS),
    size: fc.constantFrom(16 as const, 18 as const, 40 as const),
    rate: fc.integer({ min: 1, max: 192_000 }),
    before: fc.array(
      fc.record({
        id: fc.constantFrom('LIST', 'fact', 'JUNK', 'bext'),
        body: fc.uint8Array({ maxLength: 9 }),
      }),
      { maxLength: 3 },
    ),
    audio: fc.uint8Array({ maxLength: 600 }),
    sizeField: fc.constantFrom('exact', 'placeholder-ff', 'placeholder-0', 'huge') as fc.Arbitrary<string>,
    trailing: fc.option(fc.uint8Array({ minLength: 1, maxLength: 9 }), { nil: undefined }),
    cutShort: fc.nat(20),
  })
  .map(({ kind, size, rate, before, audio, sizeField, trailing, cutShort }) => {
    const fmt = fmtBody(
      size === 40
        ? { tag: 0xfffe, subFormat: kind.tag, rate, bits: kind.bits, size }
        : { tag: kind.tag, rate, bits: kind.bits, size },
    );
    const exact = sizeField === 'exact';
    const data: ChunkSpec = {
      id: 'data',
      body: audio,
      // An open-ended chunk runs to the end of the body: no pad byte after it.
      ...(exact
        ? {}
        : {
            noPad: true,
            size: sizeField === 'placeholder-0' ? 0 : sizeField === 'huge' ? 0x7ffff000 : 0xffffffff,
          }),
    };
    // An open-ended (placeholder) data chunk runs to the end: nothing may follow it.
    const chunks: ChunkSpec[] = [...before, { id: 'fmt ', body: fmt }, data];
    // (A data size of 0 is a streaming placeholder, WavReader's documented reading, so only a
    // non-empty exact chunk can be followed by another.)
    if (exact && trailing && audio.byteLength > 0) chunks.push({ id: 'LIST', body: trailing });
    let bytes = riffWave(chunks);
    let kept = audio;
    let truncated = 0;
    // An exact-size body cut short of its data chunk's end (the header stays whole).
    if (exact && cutShort > 0 && audio.byteLength > 0 && chunks.at(-1) === data) {
      const cut = Math.min(cutShort, audio.byteLength);
      const pad = audio.byteLength % 2;
      bytes = bytes.subarray(0, bytes.byteLength - pad - cut);
      kept = audio.subarray(0, audio.byteLength - cut);
      truncated = cut;
    }
    return { bytes, format: { encoding: kind.encoding, sampleRate: rate }, audio: kept, truncated };
  });

function joined(parts: readonly Uint8Array[]): number[] {
  return parts.flatMap((p) => Array.from(p));
}

describe('WAV parsing (property)', () => {
  it('WavReader: any valid WAV cut anywhere gives its format and exactly its audio', () => {
    fc.assert(
      fc.property(wavArb, cutsArb, (wav, cuts) => {
        const reader = new WavReader();
        const audio: Uint8Array[] = [];
        for (const chunk of splitAt(wav.bytes, cuts)) {
          const { format, data } = reader.push(chunk);
          if (data.byteLength > 0) {
            expect(format).toMatchObject(wav.format);
            audio.push(data.slice());
          }
        }
        expect(reader.format).toMatchObject(wav.format);
        expect(reader.end()).toEqual({ truncatedBytes: wav.truncated });
        expect(joined(audio)).toEqual(Array.from(wav.audio));
      }),
      RUNS,
    );
  });

  it('wavBodyAudio: the same audio labelled with the header format; a short exact body is a truncation ProtocolError', async () => {
    await fc.assert(
      fc.asyncProperty(wavArb, cutsArb, async (wav, cuts) => {
        const got = await outcome(wavBodyAudio('kokoro', source(splitAt(wav.bytes, cuts))));
        for (const item of got.items) expect(item.format).toMatchObject(wav.format);
        expect(joined(got.items.map((i) => i.data))).toEqual(Array.from(wav.audio));
        if (wav.truncated === 0) {
          expect(got.error).toBeUndefined();
        } else {
          expect(ProtocolError.isInstance(got.error)).toBe(true);
          expect((got.error as ProtocolError).message).toBe(
            `WAV body ended ${wav.truncated} bytes short of its data chunk (truncated)`,
          );
          expect((got.error as ProtocolError).partialOutput).toBe(got.items.length > 0);
        }
      }),
      RUNS,
    );
  });

  it('any bytes (random, or a valid WAV with bytes changed or cut), cut anywhere: audio or a ProtocolError, chunk-invariant', async () => {
    const mangledArb = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc
        .tuple(
          wavArb,
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
          fc.nat(),
        )
        .map(([wav, flips, keep]) => {
          const bytes = wav.bytes.slice(0, 1 + (keep % wav.bytes.byteLength));
          for (const [at, flip] of flips) bytes[at % bytes.byteLength]! ^= flip;
          return bytes;
        }),
    );
    await fc.assert(
      fc.asyncProperty(mangledArb, cutsArb, async (bytes, cuts) => {
        const whole = await outcome(wavBodyAudio('p', source([bytes])));
        const split = await outcome(wavBodyAudio('p', source(splitAt(bytes, cuts))));
        for (const o of [whole, split]) {
          if (o.error !== undefined) {
            expect(ProtocolError.isInstance(o.error)).toBe(true);
            expect((o.error as ProtocolError).provider).toBe('p');
          }
          // Audio always carries a format read from the header.
          for (const item of o.items)
            expect(['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw']).toContain(item.format.encoding);
        }
        expect(joined(split.items.map((i) => i.data))).toEqual(joined(whole.items.map((i) => i.data)));
        expect((split.error as Error | undefined)?.message).toBe((whole.error as Error | undefined)?.message);
      }),
      RUNS,
    );
  });
});
