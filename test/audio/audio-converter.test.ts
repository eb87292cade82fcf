import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAudioConverter } from '../../src/audio/audio-converter.js';
import { decodeToFloat32, encodeFromFloat32 } from '../../src/audio/pcm-codec.js';
import { frameSamples, SampleFramer } from '../../src/audio/sample-framer.js';
import { WavReader } from '../../src/audio/wav-reader.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { SEEDED } from '../helpers/property-seed.js';
import { concatBytes, fixture, sine } from './helpers.js';

const pcm24k: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
const mulaw8k: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
const pcm16k: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };

/** `data` (in `from`) cut at `sizes` (cycled) into chunks of any byte length, framed, converted. */
async function convertAll(
  from: AudioFormat,
  to: AudioFormat,
  data: Uint8Array,
  sizes: readonly number[],
): Promise<Uint8Array> {
  const framer = new SampleFramer(from);
  const converter = await createAudioConverter(from, to);
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < data.byteLength; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(converter.push(framer.push(data.subarray(at, at + size))));
    at += size;
  }
  framer.end();
  out.push(converter.flush());
  converter.close();
  return concatBytes(out);
}

/** A fake TTS provider: `data` labelled PCM16 LE 24 kHz mono, cut into odd-sized chunks. */
async function* fakeProvider(data: Uint8Array): AsyncGenerator<Uint8Array> {
  const sizes = [1, 999, 2, 1501, 7, 1000];
  let at = 0;
  for (const size of sizes) {
    yield data.subarray(at, Math.min(at + size, data.byteLength));
    at += size;
  }
  yield data.subarray(at);
}

/** Data bytes of a whole WAV file. */
function wavData(file: Uint8Array): { format: AudioFormat; data: Uint8Array } {
  const reader = new WavReader();
  const { format, data } = reader.push(file);
  return { format: format!, data };
}

function snrDb(signal: Float32Array, test: Float32Array, from: number, to: number): number {
  let s = 0;
  let e = 0;
  for (let i = from; i < to; i++) {
    s += signal[i]! ** 2;
    e += (signal[i]! - test[i]!) ** 2;
  }
  return 10 * Math.log10(s / e);
}

describe('createAudioConverter', () => {
  it('an unknown option or quality is an error at once, whether or not the rates differ', async () => {
    // `qualty` was ignored silently, and a bad quality passed whenever the rates were equal.
    await expect(createAudioConverter(pcm24k, pcm16k, { qualty: 'sinc-best' } as never)).rejects.toThrow(
      new TypeError("createAudioConverter: unknown option 'qualty'; the only option is quality"),
    );
    const unknownQuality = new RangeError(
      "createAudioConverter: unknown quality 'best' (expected sinc-best, sinc-medium, sinc-fastest, linear, zero-order-hold)",
    );
    await expect(createAudioConverter(pcm24k, pcm24k, { quality: 'best' } as never)).rejects.toThrow(
      unknownQuality,
    );
    await expect(createAudioConverter(pcm24k, pcm16k, { quality: 'best' } as never)).rejects.toThrow(
      unknownQuality,
    );
    await expect(createAudioConverter(pcm24k, pcm16k, null as never)).rejects.toThrow(TypeError);
    const fine = await createAudioConverter(pcm24k, pcm16k, { quality: 'sinc-best' });
    expect(fine.flush().byteLength).toBe(0);
    fine.close();
  });

  it('C11: 4800 bytes of PCM16 LE 24 kHz (100 ms) from a provider become exactly 800 bytes of 8 kHz mu-law', async () => {
    const tone = encodeFromFloat32(sine(440, 24000, 2400, 0.5), 'pcm_s16le');
    expect(tone.byteLength).toBe(4800);
    const converter = await createAudioConverter(pcm24k, mulaw8k);
    const out: Uint8Array[] = [];
    for await (const whole of frameSamples(fakeProvider(tone), pcm24k)) out.push(converter.push(whole));
    out.push(converter.flush());
    converter.close();
    const mulaw = concatBytes(out);
    expect(mulaw.byteLength).toBe(800);
    // It is the same tone, now as mu-law at 8 kHz (not the 4800 PCM bytes relabelled).
    const decoded = decodeToFloat32(mulaw, 'mulaw');
    expect(snrDb(sine(440, 8000, 800, 0.5), decoded, 40, 760)).toBeGreaterThan(33); // measured 36.5 dB (mu-law limits it)
  });

  it('24 kHz PCM -> 16 kHz PCM and -> 8 kHz mu-law: exact byte counts and identical bytes for any chunking', async () => {
    // A sweep over the whole band (some of it above the new Nyquist) as PCM16 LE 24 kHz.
    const pcm = encodeFromFloat32(
      Float32Array.from(
        { length: 7203 },
        (_, i) => 0.6 * Math.sin(2 * Math.PI * (50 + i * 0.8) * (i / 24000)),
      ),
      'pcm_s16le',
    );
    for (const to of [pcm16k, mulaw8k]) {
      const whole = await convertAll(pcm24k, to, pcm, [pcm.byteLength]);
      const samples = Math.round((7203 * to.sampleRate) / 24000);
      expect(whole.byteLength).toBe(to.encoding === 'mulaw' ? samples : samples * 2);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 40 }),
          async (sizes) => {
            const cut = await convertAll(pcm24k, to, pcm, sizes);
            expect(Buffer.from(cut).equals(Buffer.from(whole))).toBe(true);
          },
        ),
        { ...SEEDED, numRuns: 30 },
      );
    }
  });

  it('a constant level comes out exactly: PCM16 16384 at 24 kHz is 16384 at 16 kHz once the filter is full', async () => {
    const pcm = new Uint8Array(new Int16Array(4800).fill(16384).buffer);
    const out = new Int16Array((await convertAll(pcm24k, pcm16k, pcm, [960])).buffer);
    expect(out.length).toBe(3200);
    expect(Array.from(out.subarray(100, 3100)).every((s) => s === 16384)).toBe(true);
  });

  it('paced 20 ms chunks, 24 kHz -> 16 kHz: every push returns its 20 ms, 1.5 ms held back from the first on, never more', async () => {
    // A TTS stream paced in real time: 150 chunks of 480 samples (960 bytes). The filter
    // holds 24 output samples (1.5 ms) back from the first chunk on; every later chunk gives
    // its full 320 samples at once (no chunk with nothing, none with double), and flush()
    // returns the 24 held back.
    const converter = await createAudioConverter(pcm24k, pcm16k);
    const pcm = encodeFromFloat32(sine(440, 24000, 72000, 0.5), 'pcm_s16le');
    const sizes: number[] = [];
    for (let i = 0; i < 150; i++) sizes.push(converter.push(pcm.subarray(i * 960, (i + 1) * 960)).byteLength);
    expect(sizes).toEqual([592, ...new Array<number>(149).fill(640)]);
    expect(converter.flush().byteLength).toBe(48);
    converter.close();
  });

  it('8 kHz mu-law -> 16 kHz PCM (a telephone line into an STT model): 2 samples per byte, the tone intact', async () => {
    const mulaw = encodeFromFloat32(sine(1000, 8000, 800, 0.5), 'mulaw');
    const out = await convertAll(mulaw8k, pcm16k, mulaw, [160]);
    expect(out.byteLength).toBe(3200);
    const got = decodeToFloat32(out, 'pcm_s16le');
    expect(snrDb(sine(1000, 16000, 1600, 0.5), got, 80, 1520)).toBeGreaterThan(33); // mu-law limits it
  });

  it('24 kHz PCM -> 8 kHz A-law: one byte per output sample, the tone intact', async () => {
    const pcm = encodeFromFloat32(sine(440, 24000, 2400, 0.5), 'pcm_s16le');
    const alaw = await convertAll(pcm24k, { encoding: 'alaw', sampleRate: 8000 }, pcm, [480]);
    expect(alaw.byteLength).toBe(800);
    expect(snrDb(sine(440, 8000, 800, 0.5), decodeToFloat32(alaw, 'alaw'), 40, 760)).toBeGreaterThan(33);
  });

  it('equal formats pass the very same bytes through, with no resampler', async () => {
    const converter = await createAudioConverter(pcm24k, { ...pcm24k, channels: 1 });
    const data = Uint8Array.of(1, 2, 3, 4);
    expect(converter.push(data)).toBe(data);
    expect(converter.flush().byteLength).toBe(0);
    converter.close();
  });

  it('same rate, other encoding: transcodes sample by sample (s16 -> A-law)', async () => {
    const converter = await createAudioConverter(
      { encoding: 'pcm_s16le', sampleRate: 8000 },
      { encoding: 'alaw', sampleRate: 8000 },
    );
    const s16 = new Uint8Array(new Int16Array([0, 32767, -32768]).buffer);
    expect(Array.from(converter.push(s16))).toEqual([0xd5, 0xaa, 0x2a]);
    expect(converter.flush().byteLength).toBe(0);
    converter.close();
    expect(() => converter.push(s16)).toThrow('AudioConverter is closed');
  });

  it('real speech: jfk 24 kHz -> 16 kHz matches the 16 kHz original (sox made the 24 kHz file from it)', async () => {
    const src = wavData(fixture('jfk-24k-s16le.wav'));
    const ref = wavData(fixture('jfk-16k-s16le.wav'));
    const converter = await createAudioConverter(src.format, ref.format);
    const out: Uint8Array[] = [];
    for (let at = 0; at < src.data.byteLength; at += 4800)
      out.push(converter.push(src.data.subarray(at, at + 4800)));
    out.push(converter.flush());
    converter.close();
    const pcm = concatBytes(out);
    expect(pcm.byteLength).toBe(ref.data.byteLength); // 176000 samples
    const got = decodeToFloat32(pcm, 'pcm_s16le');
    const want = decodeToFloat32(ref.data, 'pcm_s16le');
    expect(snrDb(want, got, 1000, 175000)).toBeGreaterThan(62); // measured 67.0 dB (62 with libsamplerate)
  });

  it('real speech: jfk 16 kHz s16 -> 8 kHz mu-law is close to the telephony fixture (sox)', async () => {
    const src = wavData(fixture('jfk-16k-s16le.wav'));
    const ref = wavData(fixture('jfk-8k-mulaw.wav'));
    expect(ref.format).toEqual({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
    const converter = await createAudioConverter(src.format, ref.format);
    const mulaw = concatBytes([converter.push(src.data), converter.flush()]);
    converter.close();
    expect(mulaw.byteLength).toBe(88000);
    const snr = snrDb(decodeToFloat32(ref.data, 'mulaw'), decodeToFloat32(mulaw, 'mulaw'), 500, 87500);
    expect(snr).toBeGreaterThan(30); // measured 33.5 dB (27.6 with libsamplerate)
  });

  it('rejects stereo, unknown encodings and bad rates with a RangeError that names the problem', async () => {
    const stereo = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 } as unknown as AudioFormat;
    await expect(createAudioConverter(stereo, pcm24k)).rejects.toThrow(
      /only mono audio is supported, from has 2 channels/,
    );
    await expect(
      createAudioConverter(pcm24k, { encoding: 'opus', sampleRate: 48000 } as unknown as AudioFormat),
    ).rejects.toThrow(RangeError);
    await expect(createAudioConverter(pcm24k, { encoding: 'mulaw', sampleRate: 0 })).rejects.toThrow(
      /to.sampleRate/,
    );
  });

  it('requires whole samples of the input format (framing is up to the caller)', async () => {
    const converter = await createAudioConverter(pcm24k, mulaw8k);
    expect(() => converter.push(new Uint8Array(3))).toThrow(RangeError);
    converter.close();
  });
});
