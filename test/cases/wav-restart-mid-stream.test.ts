/**
 * A WAV answer that restarts: a server that encodes each sentence separately sends WAV files
 * back to back. The next `RIFF....WAVE` header is read as the start of the next file, never
 * played as samples: found inside a placeholder-size `data` chunk (0xFFFFFFFF or 0, what
 * streaming writers leave), or after an exact-size one (its bytes are not dropped). A next file
 * of the same format continues the stream; one of another format is a ProtocolError. The server
 * speaks OpenAI's /audio/speech on its own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { WavReader } from '../../src/audio/wav-reader.js';
import { type AudioChunk, ProtocolError, type ProviderConfig } from '../../src/index.js';
import { wavHeaderByHand } from '../helpers/wav-header.js';
import { concat, drain, httpServer, pcmSignal, router } from './wire/servers.js';

/** A PCM s16le mono WAV header at `rate` Hz whose data size field is `size`. */
const header = (rate: number, size: number): Buffer => wavHeaderByHand(rate, size);

const ONE = pcmSignal(2400, 24_000, 1);
const TWO = pcmSignal(2400, 24_000, 2);

/** A server answering `body` as audio/wav in writes cut at `cuts`. */
function server(body: Buffer, cuts: number[] = []) {
  return httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      let at = 0;
      for (const cut of cuts) {
        res.write(body.subarray(at, cut));
        at = cut;
      }
      res.end(body.subarray(at));
    });
  });
}

const openai = (url: string): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl: `${url}/v1`,
  tts: { voices: { agent: 'v' }, responseFormat: 'wav' },
});

async function speak(providers: Record<string, ProviderConfig>) {
  const stream = router({
    providers,
    routes: { tts: { providers: Object.keys(providers), strategy: 'priority', firstChunkTimeoutMs: false } },
  }).tts({ text: 'Hello there.', voice: 'agent' });
  const { items, error } = await drain(stream);
  return { audio: concat((items as AudioChunk[]).map((c) => c.data)), error };
}

describe('a WAV stream that restarts with a second RIFF header', () => {
  for (const [name, size] of [
    ['data size 0xFFFFFFFF', () => 0xffffffff],
    ['data size 0', () => 0],
    ['exact data sizes', (n: number) => n],
  ] as const) {
    // Cuts: whole; inside the second header's 'RIFF'; between RIFF and WAVE; byte by byte near it.
    for (const cuts of [
      [],
      [44 + 4802],
      [44 + 4800 + 6],
      [44 + 4799, 44 + 4800, 44 + 4801, 44 + 4809, 44 + 4810],
    ]) {
      it(`${name}, cut at [${cuts.join(', ')}]: both files' samples, no header bytes, nothing dropped`, async () => {
        const body = Buffer.concat([
          header(24_000, size(ONE.byteLength)),
          ONE,
          header(24_000, size(TWO.byteLength)),
          TWO,
        ]);
        const wire = await server(body, cuts);
        const { audio, error } = await speak({ a: openai(wire.url) });
        expect(error).toBeUndefined();
        expect(audio.byteLength).toBe(9600);
        expect(audio.equals(Buffer.concat([ONE, TWO]))).toBe(true);
      });
    }
  }

  it('exact sizes with a LIST chunk and a pad byte between the files: the LIST is skipped, the next file read', () => {
    const odd = Buffer.from([1, 2, 3]);
    const mulawHeader = (n: number) => {
      const h = header(8000, n);
      h.writeUInt16LE(7, 20);
      h.writeUInt32LE(8000, 28);
      h.writeUInt16LE(1, 32);
      h.writeUInt16LE(8, 34);
      return h;
    };
    const list = Buffer.concat([
      Buffer.from('LIST', 'latin1'),
      Buffer.from([4, 0, 0, 0]),
      Buffer.from('INFO'),
    ]);
    const wav = Buffer.concat([
      mulawHeader(3),
      odd,
      Buffer.from([0]),
      list,
      mulawHeader(2),
      Buffer.from([9, 8]),
    ]);
    const reader = new WavReader();
    const out: Buffer[] = [];
    for (const byte of wav) out.push(Buffer.from(reader.push(Uint8Array.of(byte)).data));
    expect(reader.end()).toEqual({ truncatedBytes: 0 });
    expect([...Buffer.concat(out)]).toEqual([1, 2, 3, 9, 8]);
  });

  it('an odd-size exact mu-law data chunk written without its pad byte, then a second file: all bytes in order', () => {
    const mulawHeader = (n: number) => {
      const h = header(8000, n);
      h.writeUInt16LE(7, 20);
      h.writeUInt32LE(8000, 28);
      h.writeUInt16LE(1, 32);
      h.writeUInt16LE(8, 34);
      return h;
    };
    const wav = Buffer.concat([
      mulawHeader(5),
      Buffer.from([1, 2, 3, 4, 5]),
      mulawHeader(6),
      Buffer.from([100, 101, 102, 103, 104, 105]),
    ]);
    for (const step of [wav.byteLength, 1, 2, 3, 47, 50]) {
      const reader = new WavReader();
      const out: number[] = [];
      for (let at = 0; at < wav.byteLength; at += step)
        out.push(...reader.push(wav.subarray(at, at + step)).data);
      expect(reader.end()).toEqual({ truncatedBytes: 0 });
      expect(out).toEqual([1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105]);
      expect(reader.format).toEqual({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
    }
  });

  it('a placeholder-size chunk whose last bytes start like a header gives them back at the end (rest)', () => {
    const reader = new WavReader();
    const first = reader.push(
      Buffer.concat([header(24_000, 0xffffffff), Buffer.from([1, 2]), Buffer.from('RIFF')]),
    );
    expect([...first.data]).toEqual([1, 2]);
    expect([...reader.push(Buffer.from([0, 0])).data]).toEqual([]);
    expect(reader.end()).toEqual({
      truncatedBytes: 0,
      rest: Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0, 0]),
    });
  });

  it('a body that ends inside the second header is a ProtocolError', () => {
    const reader = new WavReader();
    reader.push(Buffer.concat([header(24_000, 4), Buffer.alloc(4), header(24_000, 4).subarray(0, 20)]));
    expect(() => reader.end()).toThrow(ProtocolError);
  });

  for (const [name, size] of [
    ['data size 0xFFFFFFFF', () => 0xffffffff],
    ['exact data sizes', (n: number) => n],
  ] as const) {
    it(`${name}: a second file of another format (16 kHz after 24 kHz) is a ProtocolError, and the next provider serves`, async () => {
      const body = Buffer.concat([
        header(24_000, size(4)),
        Buffer.alloc(4),
        header(16_000, size(3200)),
        pcmSignal(1600, 16_000),
      ]);
      const bad = await server(body);
      const good = await server(Buffer.concat([header(24_000, TWO.byteLength), TWO]));
      const stream = router({
        providers: { bad: openai(bad.url), good: openai(good.url) },
        routes: { tts: { providers: ['bad', 'good'], strategy: 'priority', firstChunkTimeoutMs: false } },
      }).tts({ text: 'Hello there.', voice: 'agent' });
      const { items, error } = await drain(stream);
      const result = await stream.result;
      expect(error).toBeUndefined();
      expect(concat((items as AudioChunk[]).map((c) => c.data)).equals(TWO)).toBe(true);
      expect(result.provider).toBe('good');
      const first = result.attempts[0]!.error as ProtocolError;
      expect(first).toBeInstanceOf(ProtocolError);
      expect(first.message).toBe(
        'WAV stream restarts with another format (pcm_s16le@16000Hz after pcm_s16le@24000Hz)',
      );
    });
  }

  it("the format check also holds once the first file's audio was read: offset of the second fmt chunk", () => {
    const reader = new WavReader();
    expect(reader.push(Buffer.concat([header(24_000, 0xffffffff), ONE])).data.byteLength).toBe(4800);
    let error: unknown;
    try {
      reader.push(header(16_000, 0xffffffff));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).offset).toBe(44 + 4800 + 20);
  });
});
