import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readWav } from '../../src/audio/read-wav.js';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import { SEEDED } from '../helpers/property-seed.js';
import { collect, concatBytes, firstDifference, fixture, streamOf } from './helpers.js';
import { ascii, fmtBody, join, ramp, riffWave } from './wav-build.js';

const pcm16 = fmtBody({ tag: 1, rate: 16000, bits: 16 });

/** A source that records how far it was read and whether it was closed early. */
function trackedSource(data: Uint8Array, size: number) {
  const log = { pulled: 0, closed: false, finished: false };
  async function* gen(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < data.byteLength; at += size) {
        log.pulled++;
        yield data.subarray(at, at + size);
      }
      log.finished = true;
    } finally {
      if (!log.finished) log.closed = true;
    }
  }
  return { source: gen(), log };
}

describe('readWav', () => {
  it('resolves the format from the header and yields the data in whole samples', async () => {
    const wav = fixture('jfk-16k-s16le.wav');
    const stream = readWav(streamOf(wav, [45, 33, 1, 1001, 77]));
    expect(await stream.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
    const chunks = await collect(stream.data);
    expect(chunks.every((c) => c.byteLength % 2 === 0 && c.byteLength > 0)).toBe(true);
    expect(firstDifference(concatBytes(chunks), wav.subarray(78))).toBe(-1);
  });

  it('works when only data is iterated (format is read on the way)', async () => {
    const wav = riffWave([
      { id: 'fmt ', body: pcm16 },
      { id: 'data', body: ramp(20) },
    ]);
    const stream = readWav(streamOf(wav, [3, 3, 3]));
    expect(Array.from(concatBytes(await collect(stream.data)))).toEqual(Array.from(ramp(20)));
    expect(await stream.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
  });

  it('property: any chunking of a streamed (placeholder-size) WAV gives the same format and data', async () => {
    const header = riffWave(
      [
        { id: 'fmt ', body: pcm16 },
        { id: 'data', body: new Uint8Array(0), size: 0xffffffff },
      ],
      0xffffffff,
    );
    const wav = join([header, ramp(500)]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 30 }), async (sizes) => {
        const stream = readWav(streamOf(wav, sizes));
        expect(await stream.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
        const chunks = await collect(stream.data);
        expect(chunks.every((c) => c.byteLength % 2 === 0)).toBe(true);
        expect(firstDifference(concatBytes(chunks), ramp(500))).toBe(-1);
      }),
      SEEDED,
    );
  });

  it('drops a stray odd byte at the end of s16 data and reports it, and reports a truncated data chunk', async () => {
    const wav = riffWave([
      { id: 'fmt ', body: pcm16 },
      { id: 'data', body: ramp(100) },
    ]);
    const dropped: number[] = [];
    const truncated: number[] = [];
    const stream = readWav(streamOf(wav.subarray(0, wav.byteLength - 33), [50]), {
      onDropped: (n) => dropped.push(n),
      onTruncated: (n) => truncated.push(n),
    });
    expect(concatBytes(await collect(stream.data)).byteLength).toBe(66);
    expect([dropped, truncated]).toEqual([[1], [33]]);
  });

  it('after an exact data chunk, reads the trailing chunks to the end (connection reuse) without yielding them', async () => {
    const wav = riffWave([
      { id: 'fmt ', body: pcm16 },
      { id: 'data', body: ramp(10) },
      { id: 'LIST', body: ramp(200) },
    ]);
    const { source, log } = trackedSource(wav, 16);
    const chunks = await collect(readWav(source).data);
    expect(Array.from(concatBytes(chunks))).toEqual(Array.from(ramp(10)));
    expect(log).toEqual({ pulled: Math.ceil(wav.byteLength / 16), closed: false, finished: true });
  });

  it('breaking out of the data loop closes the source at once', async () => {
    const wav = join([
      riffWave([
        { id: 'fmt ', body: pcm16 },
        { id: 'data', body: new Uint8Array(0), size: 0xffffffff },
      ]),
      ramp(1000),
    ]);
    const { source, log } = trackedSource(wav, 100);
    for await (const chunk of readWav(source).data) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      break;
    }
    expect(log).toEqual({ pulled: 1, closed: true, finished: false });
  });

  it('a malformed header rejects format and data with ProtocolError (offset) and closes the source', async () => {
    const bad = join([
      ascii('RIFF'),
      new Uint8Array(4),
      ascii('WAVE'),
      ascii('data'),
      new Uint8Array(4),
      ramp(100),
    ]);
    const { source, log } = trackedSource(bad, 10);
    const stream = readWav(source);
    const error = await stream.format.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProtocolError.isInstance(error) && error.offset).toBe(12);
    await expect(collect(stream.data)).rejects.toSatisfy(
      (e) => ProtocolError.isInstance(e) && e.offset === 12,
    );
    expect(log.closed).toBe(true);
  });

  it('a stream that ends before the data chunk throws ProtocolError from the data loop', async () => {
    const headerOnly = riffWave([{ id: 'fmt ', body: pcm16 }]);
    const stream = readWav(streamOf(headerOnly));
    await expect(collect(stream.data)).rejects.toSatisfy(
      (e) => ProtocolError.isInstance(e) && e.offset === headerOnly.byteLength,
    );
  });
});
