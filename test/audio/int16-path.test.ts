import { describe, expect, it } from 'vitest';
import { createAudioConverter } from '../../src/audio/audio-converter.js';
import { mulawDecodeSample, mulawEncodeSample } from '../../src/audio/g711.js';
import {
  decodeG711Into,
  decodeToFloat32,
  encodeFromFloat32,
  encodeG711FromS16,
} from '../../src/audio/pcm-codec.js';
import { Resampler } from '../../src/audio/resampler.js';
import { WavReader } from '../../src/audio/wav-reader.js';
import type { ProviderAudio } from '../../src/providers/types.js';
import { CallerAudio } from '../../src/routing/tts-stream.js';
import type { AudioChunk, AudioFormat } from '../../src/types/audio.js';
import { concatBytes, firstDifference, fixture } from './helpers.js';

// Speex's int16 path (Resampler.processEncoded for PCM s16le, mu-law and A-law): the bytes of the
// float path (decode to [-1, 1], resample, round back), and whole samples however a provider's
// bytes were cut.

const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 };
const PCM16: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };
const MULAW8: AudioFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };

/** Data bytes of a whole WAV file. */
function wavData(file: Uint8Array): Uint8Array {
  return new WavReader().push(file).data;
}

/** jfk, 24 kHz PCM s16le (real speech, 11 s). */
const JFK24 = wavData(fixture('jfk-24k-s16le.wav'));

/** The float path, as it was before the int16 path: decode, Resampler.process, encode. */
async function viaFloats(data: Uint8Array, from: AudioFormat, to: AudioFormat, chunk: number) {
  const resampler = await Resampler.create(from.sampleRate, to.sampleRate);
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.byteLength; at += chunk)
    out.push(
      encodeFromFloat32(
        resampler.process(decodeToFloat32(data.subarray(at, at + chunk), from.encoding)),
        to.encoding,
      ),
    );
  out.push(encodeFromFloat32(resampler.flush(), to.encoding));
  resampler.close();
  return concatBytes(out);
}

/** Through createAudioConverter (the int16 path), in chunks of `chunk` bytes (whole samples). */
async function viaConverter(data: Uint8Array, from: AudioFormat, to: AudioFormat, chunk: number) {
  const converter = await createAudioConverter(from, to);
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.byteLength; at += chunk) out.push(converter.push(data.subarray(at, at + chunk)));
  out.push(converter.flush());
  converter.close();
  return concatBytes(out);
}

/** The provider bytes `data` cut at `sizes` (cycled), through CallerAudio as the router runs it. */
async function throughCaller(data: Uint8Array, want: AudioFormat, sizes: readonly number[]) {
  const audio = new CallerAudio(want, 'p');
  const out: AudioChunk[] = [];
  const emit = (chunk: AudioChunk) => out.push(chunk);
  for (let at = 0, i = 0; at < data.byteLength; i++) {
    const size = sizes[i % sizes.length]!;
    const chunk: ProviderAudio = { data: data.subarray(at, at + size), format: PCM24 };
    at += size;
    const pending = audio.push(chunk, emit);
    if (pending) await pending;
  }
  audio.end(emit);
  audio.close();
  for (const c of out) expect(c.format).toBe(want);
  return concatBytes(out.map((c) => c.data));
}

describe('the int16 path', () => {
  it.each([
    ['24 kHz -> 16 kHz PCM', PCM16],
    ['24 kHz -> 8 kHz mu-law', MULAW8],
  ] as const)('jfk %s: the converter gives the float path bytes exactly (0 LSB apart)', async (_, to) => {
    const floats = await viaFloats(JFK24, PCM24, to, 960);
    const ints = await viaConverter(JFK24, PCM24, to, 960);
    const samples = (JFK24.byteLength / 2) * (to.sampleRate / 24000);
    expect(ints.byteLength).toBe(samples * (to.encoding === 'mulaw' ? 1 : 2));
    expect(firstDifference(ints, floats)).toBe(-1);
  });

  it('mu-law output: each byte is the G.711 encoder code of the s16 sample the same stream gives as PCM', async () => {
    const s16 = await viaConverter(JFK24, PCM24, { encoding: 'pcm_s16le', sampleRate: 8000 }, 960);
    const mulaw = await viaConverter(JFK24, PCM24, MULAW8, 960);
    const view = new DataView(s16.buffer, s16.byteOffset, s16.byteLength);
    const want = Uint8Array.from({ length: s16.byteLength / 2 }, (_, i) =>
      mulawEncodeSample(view.getInt16(i * 2, true)),
    );
    expect(mulaw.byteLength).toBe(88000);
    expect(firstDifference(mulaw, want)).toBe(-1);
  });

  it('encodeG711FromS16 and decodeG711Into agree with the per-sample G.711 codec on every value', () => {
    const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
    const codes = encodeG711FromS16(all, 0, 65536, 'mulaw');
    expect(codes[0]).toBe(0x00); // -32768 saturates
    expect(codes[32768]).toBe(0xff); // 0
    expect(codes[65535]).toBe(0x80); // 32767 saturates
    for (let i = 0; i < 65536; i++)
      if (codes[i] !== mulawEncodeSample(i - 32768)) expect([i, codes[i]]).toBe(null);
    // A window inside a larger view (the output area of the heap), A-law too.
    expect([...encodeG711FromS16(all, 32767, 3, 'alaw')]).toEqual([0x55, 0xd5, 0xd5]);
    const decoded = new Int16Array(258);
    expect(
      decodeG711Into(
        Uint8Array.from({ length: 256 }, (_, c) => c),
        'mulaw',
        decoded,
        2,
      ),
    ).toBe(256);
    expect(decoded[0]).toBe(0);
    for (let c = 0; c < 256; c++) expect(decoded[c + 2]).toBe(mulawDecodeSample(c));
    expect(() => decodeG711Into(new Uint8Array(3), 'alaw', new Int16Array(4), 2)).toThrow(RangeError);
    expect(() => encodeG711FromS16(all, 65535, 2, 'mulaw')).toThrow(RangeError);
  });

  it.each([
    ['odd byte boundaries', [1, 959, 3, 961, 5, 7, 1441]],
    ['1-sample and 1-byte chunks between empty ones', [2, 0, 1, 1, 0, 2, 3, 0, 1]],
    ['one 20 ms chunk split in the middle of a sample', [481, 479]],
  ] as const)(
    'through the router (CallerAudio), %s give the bytes of the whole body in one piece',
    async (_, sizes) => {
      // 0.5 s of speech: a carry dropped, padded or put after the wrong byte shifts every later sample.
      const body = JFK24.subarray(48000, 72000);
      for (const want of [PCM16, MULAW8]) {
        const whole = await viaFloats(body, PCM24, want, body.byteLength);
        const cut = await throughCaller(body, want, sizes);
        expect(cut.byteLength).toBe(whole.byteLength);
        expect(firstDifference(cut, whole)).toBe(-1);
      }
    },
  );

  it('a wrong carry fails the comparison: the same body with one byte moved across a cut differs', async () => {
    const body = JFK24.subarray(48000, 48960);
    const whole = await viaFloats(body, PCM24, PCM16, body.byteLength);
    // What a carry that swapped the held byte with the next one would hand on.
    const swapped = body.slice();
    swapped[1] = body[2]!;
    swapped[2] = body[1]!;
    const wrong = await throughCaller(swapped, PCM16, [1, 959]);
    expect(firstDifference(wrong, whole)).toBeGreaterThanOrEqual(0);
  });

  it('processEncoded of empty data returns no bytes and changes nothing; flush after the int16 path ends exactly', async () => {
    const resampler = await Resampler.create(24000, 16000);
    const input = JFK24.subarray(48000, 48960);
    const empty = resampler.processEncoded(new Uint8Array(0), 'pcm_s16le', 'pcm_s16le');
    expect(empty.byteLength).toBe(0);
    const first = resampler.processEncoded(input, 'pcm_s16le', 'pcm_s16le');
    const tail = resampler.flush();
    // 480 in, 320 out in all; the tail is int16 output as floats (s / 32768), exactly.
    expect(first.byteLength / 2 + tail.length).toBe(320);
    for (const f of tail) expect(Number.isInteger(f * 32768)).toBe(true);
    const reference = await viaFloats(input, PCM24, PCM16, 960);
    expect(firstDifference(concatBytes([first, encodeFromFloat32(tail, 'pcm_s16le')]), reference)).toBe(-1);
    resampler.close();
  });

  it('one stream stays on one path until flush(): float samples after int16 ones are refused, then accepted', async () => {
    const resampler = await Resampler.create(24000, 16000);
    resampler.processEncoded(new Uint8Array(960), 'pcm_s16le', 'mulaw');
    expect(() => resampler.process(new Float32Array(480))).toThrow(
      'Resampler: this stream was fed int16 samples (processEncoded); float samples may follow only after flush()',
    );
    expect(() => resampler.processEncoded(new Uint8Array(960), 'pcm_s16le', 'pcm_f32le')).toThrow(
      'Resampler: this stream was fed int16 samples; pcm_s16le -> pcm_f32le may follow only after flush()',
    );
    resampler.flush();
    expect(resampler.process(new Float32Array(480).fill(0.5)).length).toBeGreaterThan(0);
    // A float stream takes integer encodings on the float path, with the same bytes.
    const more = JFK24.subarray(0, 960);
    const got = resampler.processEncoded(more, 'pcm_s16le', 'pcm_s16le');
    const other = await Resampler.create(24000, 16000);
    other.process(new Float32Array(480).fill(0.5));
    expect([...got]).toEqual([
      ...encodeFromFloat32(other.process(decodeToFloat32(more, 'pcm_s16le')), 'pcm_s16le'),
    ]);
    other.close();
    resampler.close();
  });
});
