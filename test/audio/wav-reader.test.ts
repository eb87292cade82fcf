import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationMs } from '../../src/audio/format.js';
import { WavReader } from '../../src/audio/wav-reader.js';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { SEEDED } from '../helpers/property-seed.js';
import { concatBytes, firstDifference, fixture } from './helpers.js';
import { ascii, type ChunkSpec, fmtBody, join, ramp, riffWave } from './wav-build.js';

/** Reads `wav` pushed in pieces cut at `cuts` (offsets), returning format, data and end(). */
function read(wav: Uint8Array, cuts: readonly number[] = []) {
  const reader = new WavReader();
  const data: Uint8Array[] = [];
  let format: AudioFormat | undefined;
  let at = 0;
  for (const cut of [
    ...cuts.filter((c) => c > 0 && c < wav.byteLength).sort((a, b) => a - b),
    wav.byteLength,
  ]) {
    const result = reader.push(wav.subarray(at, cut));
    format ??= result.format;
    data.push(result.data);
    at = cut;
  }
  return { format, data: concatBytes(data), end: reader.end(), done: reader.done };
}

function protocolError(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    if (ProtocolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ProtocolError');
}

const pcm16 = fmtBody({ tag: 1, rate: 16000, bits: 16 });
const s16_16k = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };

describe('WavReader on the real fixtures', () => {
  it('jfk-16k-s16le.wav (LIST before data): pcm_s16le 16 kHz, 176000 samples, 11 s', () => {
    const wav = fixture('jfk-16k-s16le.wav');
    const { format, data, end, done } = read(wav);
    expect(format).toEqual(s16_16k);
    expect(data.byteLength).toBe(352000);
    expect(durationMs(format!, data.byteLength)).toBe(11000);
    expect(firstDifference(data, wav.subarray(78))).toBe(-1);
    expect(end).toEqual({ truncatedBytes: 0 });
    expect(done).toBe(true);
  });

  it('jfk-24k-s16le.wav: pcm_s16le 24 kHz, 264000 samples, 11 s', () => {
    const { format, data } = read(fixture('jfk-24k-s16le.wav'));
    expect(format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    expect(data.byteLength).toBe(528000);
    expect(durationMs(format!, data.byteLength)).toBe(11000);
  });

  it('jfk-8k-mulaw.wav (fmt of 18 bytes, fact chunk): mulaw 8 kHz, 88000 samples, 11 s', () => {
    const { format, data } = read(fixture('jfk-8k-mulaw.wav'));
    expect(format).toEqual({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
    expect(data.byteLength).toBe(88000);
    expect(durationMs(format!, data.byteLength)).toBe(11000);
  });

  it('property: any chunking of a fixture gives the same format and data bytes', () => {
    const wav = fixture('jfk-8k-mulaw.wav').subarray(0, 2000);
    // Cut the header region densely: cuts within the first 120 bytes, plus a few later.
    const whole = read(wav);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 120 }), { maxLength: 20 }),
        fc.array(fc.nat(1999)),
        (a, b) => {
          const got = read(wav, [...a, ...b]);
          expect(got.format).toEqual(whole.format);
          expect(firstDifference(got.data, whole.data)).toBe(-1);
        },
      ),
      SEEDED,
    );
  });
});

describe('WavReader chunk walking', () => {
  const audio = ramp(10);

  it('reads fmt of 16, 18 and 40 bytes (WAVE_FORMAT_EXTENSIBLE PCM, float, mu-law, A-law SubFormats)', () => {
    const cases: [Uint8Array, AudioFormat][] = [
      [
        fmtBody({ tag: 1, rate: 16000, bits: 16, size: 18 }),
        { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
      ],
      [fmtBody({ tag: 3, rate: 48000, bits: 32 }), { encoding: 'pcm_f32le', sampleRate: 48000, channels: 1 }],
      [
        fmtBody({ tag: 0xfffe, rate: 22050, bits: 16, size: 40, subFormat: 1 }),
        { encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 },
      ],
      [
        fmtBody({ tag: 0xfffe, rate: 44100, bits: 32, size: 40, subFormat: 3 }),
        { encoding: 'pcm_f32le', sampleRate: 44100, channels: 1 },
      ],
      [
        fmtBody({ tag: 0xfffe, rate: 8000, bits: 8, size: 40, subFormat: 7 }),
        { encoding: 'mulaw', sampleRate: 8000, channels: 1 },
      ],
      [
        fmtBody({ tag: 0xfffe, rate: 8000, bits: 8, size: 40, subFormat: 6 }),
        { encoding: 'alaw', sampleRate: 8000, channels: 1 },
      ],
      [
        fmtBody({ tag: 6, rate: 8000, bits: 8, size: 18 }),
        { encoding: 'alaw', sampleRate: 8000, channels: 1 },
      ],
    ];
    const formats = cases.map(
      ([body]) =>
        read(
          riffWave([
            { id: 'fmt ', body },
            { id: 'data', body: audio.subarray(0, 8) },
          ]),
        ).format,
    );
    expect(formats).toEqual(cases.map(([, format]) => format));
  });

  it('skips LIST and unknown chunks before data, padding odd sizes to even', () => {
    const wav = riffWave([
      { id: 'LIST', body: ascii('INFOISFT') },
      { id: 'fmt ', body: pcm16 },
      { id: 'junk', body: ramp(3, 0xe0) }, // odd: one pad byte follows
      { id: 'fact', body: ramp(4) },
      { id: 'data', body: audio },
      { id: 'LIST', body: ramp(5, 0x90) },
    ]);
    const { format, data, done } = read(wav);
    expect(format).toEqual(s16_16k);
    expect(Array.from(data)).toEqual(Array.from(audio));
    expect(done).toBe(true);
  });

  it('an exact data size stops at its end: trailing chunks (and the pad byte of odd mu-law data) are not audio', () => {
    const mulaw = fmtBody({ tag: 7, rate: 8000, bits: 8 });
    const wav = riffWave([
      { id: 'fmt ', body: mulaw },
      { id: 'data', body: ramp(7, 0x40) },
      { id: 'LIST', body: ramp(6, 0x80) },
    ]);
    const { data, end } = read(wav);
    expect(Array.from(data)).toEqual(Array.from(ramp(7, 0x40)));
    expect(end).toEqual({ truncatedBytes: 0 });
  });

  it('data size 0xFFFFFFFF (and RIFF size 0xFFFFFFFF) means the data runs to the end of the stream', () => {
    const header = riffWave(
      [
        { id: 'fmt ', body: pcm16 },
        { id: 'data', body: new Uint8Array(0), size: 0xffffffff },
      ],
      0xffffffff,
    );
    const { data, end, done } = read(join([header, ramp(1000)]), [50, 51, 500]);
    expect(firstDifference(data, ramp(1000))).toBe(-1);
    expect(end).toEqual({ truncatedBytes: 0 });
    expect(done).toBe(false);
  });

  it("espeak-ng's streamed header (RIFF 0x7FFFF024, data 0x7FFFF000) means the data runs to the end", () => {
    const fmt22k = fmtBody({ tag: 1, rate: 22050, bits: 16 });
    const header = riffWave(
      [
        { id: 'fmt ', body: fmt22k },
        { id: 'data', body: new Uint8Array(0), size: 0x7ffff000 },
      ],
      0x7ffff024,
    );
    const { format, data, end } = read(join([header, ramp(4410)]), [44]);
    expect(format).toEqual({ encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 });
    expect(data.byteLength).toBe(4410);
    expect(end).toEqual({ truncatedBytes: 0 });
  });

  it('data size 0 (left by writers that cannot seek back) also runs to the end', () => {
    const header = riffWave(
      [
        { id: 'fmt ', body: pcm16 },
        { id: 'data', body: new Uint8Array(0) },
      ],
      0,
    );
    expect(read(join([header, ramp(6)])).data.byteLength).toBe(6);
  });

  it('reports the bytes an exact data chunk declared but never delivered', () => {
    const wav = riffWave([
      { id: 'fmt ', body: pcm16 },
      { id: 'data', body: ramp(100) },
    ]);
    const cut = wav.subarray(0, wav.byteLength - 40);
    const { data, end } = read(cut);
    expect(data.byteLength).toBe(60);
    expect(end).toEqual({ truncatedBytes: 40 });
  });

  it('returns data as views of the pushed bytes (no copy)', () => {
    const wav = riffWave([
      { id: 'fmt ', body: pcm16 },
      { id: 'data', body: ramp(8) },
    ]);
    const result = new WavReader().push(wav);
    expect(result.data.buffer).toBe(wav.buffer);
    expect(result.data.byteOffset).toBe(44);
  });

  it('property: any chunking of a WAV with LIST, odd chunks and EXTENSIBLE fmt gives the same format and data', () => {
    const chunks: ChunkSpec[] = [
      { id: 'LIST', body: ramp(9) },
      { id: 'fmt ', body: fmtBody({ tag: 0xfffe, rate: 24000, bits: 16, size: 40, subFormat: 1 }) },
      { id: 'odd!', body: ramp(1) },
      { id: 'data', body: ramp(300, 7) },
      { id: 'LIST', body: ramp(11) },
    ];
    const wav = riffWave(chunks);
    fc.assert(
      fc.property(fc.array(fc.nat(wav.byteLength), { maxLength: 40 }), (cuts) => {
        const { format, data } = read(wav, cuts);
        expect(format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
        expect(firstDifference(data, ramp(300, 7))).toBe(-1);
      }),
      SEEDED,
    );
  });
});

describe('WavReader errors: ProtocolError with the byte offset', () => {
  const data = { id: 'data', body: ramp(4) };

  it('not RIFF (offset 0) and not WAVE (offset 8)', () => {
    const notRiff = protocolError(() => new WavReader().push(join([ascii('RIFX'), new Uint8Array(8)])));
    expect([notRiff.offset, notRiff.message]).toEqual([0, 'Not a WAV stream: no RIFF header']);
    const avi = riffWave([data]);
    avi.set(ascii('AVI '), 8);
    const notWave = protocolError(() => new WavReader().push(avi));
    expect(notWave.offset).toBe(8);
    expect(notWave.retryable).toBe(true);
  });

  it('data before fmt: offset of the data chunk, even when the header comes one byte at a time', () => {
    const wav = riffWave([{ id: 'LIST', body: ramp(4) }, data, { id: 'fmt ', body: pcm16 }]);
    const reader = new WavReader();
    const error = protocolError(() => {
      for (let i = 0; i < wav.byteLength; i++) reader.push(wav.subarray(i, i + 1));
    });
    expect(error.offset).toBe(24);
    expect(error.message).toMatch(/data chunk comes before any fmt chunk/);
  });

  it('an unsupported format tag (MPEG 0x0050): offset of the tag', () => {
    const error = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 0x50, rate: 16000, bits: 16 }) }, data])),
    );
    expect(error.offset).toBe(20);
    expect(error.message).toMatch(/format tag 0x0050 is not supported/);
  });

  it('bits per sample that do not fit the tag (24-bit PCM, 16-bit mu-law): offset of the bits field', () => {
    const pcm24 = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 1, rate: 16000, bits: 24 }) }, data])),
    );
    // It said "WAV 24 bits per sample do not fit pcm_s16le (16 expected)": voxroute's own name
    // of an encoding, not what the file is or what voxroute reads.
    expect([pcm24.offset, pcm24.message]).toEqual([
      34,
      'WAV 24-bit PCM is not supported: voxroute reads 16-bit PCM, 32-bit float, 8-bit mu-law and 8-bit A-law',
    ]);
    const mulaw16 = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 7, rate: 8000, bits: 16 }) }, data])),
    );
    expect([mulaw16.offset, mulaw16.message]).toEqual([
      34,
      'WAV 16-bit mu-law is not supported: voxroute reads 16-bit PCM, 32-bit float, 8-bit mu-law and 8-bit A-law',
    ]);
    const float64 = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 3, rate: 8000, bits: 64 }) }, data])),
    );
    expect(float64.message).toBe(
      'WAV 64-bit float is not supported: voxroute reads 16-bit PCM, 32-bit float, 8-bit mu-law and 8-bit A-law',
    );
  });

  it('an EXTENSIBLE fmt with an unknown SubFormat GUID, or shorter than 40 bytes', () => {
    const guid = fmtBody({ tag: 0xfffe, rate: 16000, bits: 16, size: 40, guidTail: Array(14).fill(0x11) });
    expect(protocolError(() => read(riffWave([{ id: 'fmt ', body: guid }, data]))).offset).toBe(44);
    const short = fmtBody({ tag: 0xfffe, rate: 16000, bits: 16, size: 18 });
    expect(protocolError(() => read(riffWave([{ id: 'fmt ', body: short }, data]))).offset).toBe(20);
  });

  it('stereo (voxroute reads mono only), a wrong block align, a fmt shorter than 16 bytes', () => {
    const stereo = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 1, channels: 2, rate: 16000, bits: 16 }) }, data])),
    );
    expect([stereo.offset, stereo.message]).toEqual([
      22,
      'WAV has 2 channels; voxroute reads mono audio only',
    ]);
    const align = protocolError(() =>
      read(riffWave([{ id: 'fmt ', body: fmtBody({ tag: 1, rate: 16000, bits: 16, blockAlign: 4 }) }, data])),
    );
    expect(align.offset).toBe(32);
    const tiny = protocolError(() => read(riffWave([{ id: 'fmt ', body: ramp(14) }, data])));
    expect([tiny.offset, tiny.message]).toEqual([16, 'WAV fmt chunk is 14 bytes; at least 16 expected']);
  });

  it('a stream that ends inside the header: end() throws with the stream length as offset', () => {
    const reader = new WavReader();
    reader.push(riffWave([{ id: 'fmt ', body: pcm16 }]).subarray(0, 30));
    const error = protocolError(() => reader.end());
    expect(error.offset).toBe(30);
  });
});
