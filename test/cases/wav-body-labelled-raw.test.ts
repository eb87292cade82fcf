/**
 * A WAV body labelled as raw samples: a server that ignores the requested raw format answers a
 * WAV file under `application/octet-stream`, `audio/pcm` or no Content-Type. The body is
 * sniffed (`RIFF....WAVE` in its first 12 bytes) and read as WAV: its 44-byte header is never
 * yielded as samples, and its 16 kHz samples are converted to the 24 kHz asked for, never
 * relabelled. A WAV the router cannot read is a ProtocolError and the next provider serves.
 * The servers speak OpenAI's /audio/speech and Cartesia's /tts/bytes on their own (node:http).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isWavHeader } from '../../src/audio/wav-sniff.js';
import { type AudioChunk, ProtocolError, type ProviderConfig } from '../../src/index.js';
import { concat, drain, httpServer, pcmSignal, router } from './wire/servers.js';

/** A PCM WAV file of `pcm` (s16le mono at `rate` Hz); `channels` and `bits` only in the header. */
function wav(rate: number, pcm: Buffer, { channels = 1, bits = 16 } = {}): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + pcm.byteLength, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE((rate * channels * bits) / 8, 28);
  h.writeUInt16LE((channels * bits) / 8, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(pcm.byteLength, 40);
  return Buffer.concat([h, pcm]);
}

/** 0.1 s of a 16 kHz signal. */
const PCM_16K = pcmSignal(1600, 16_000);
const PCM_24K = pcmSignal(2400, 24_000, 2);

/** A server answering every request with `body` under `contentType` (none when undefined), in `pieces` writes. */
function server(body: Buffer, contentType: string | undefined, pieces: number[] = []) {
  return httpServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
      let at = 0;
      for (const n of pieces) {
        res.write(body.subarray(at, at + n));
        at += n;
      }
      res.end(body.subarray(at));
    });
  });
}

const openai = (url: string): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl: `${url}/v1`,
  tts: { voices: { agent: 'v' } },
});
const cartesia = (url: string): ProviderConfig => ({
  kind: 'cartesia',
  baseUrl: url,
  apiKey: 'sk_car_wav_sniff',
  tts: { voices: { agent: 'v' }, transport: 'bytes' },
});

async function speak(providers: Record<string, ProviderConfig>, order = Object.keys(providers)) {
  const stream = router({
    providers,
    routes: { tts: { providers: order, strategy: 'priority', firstChunkTimeoutMs: false } },
  }).tts({ text: 'Hello there.', voice: 'agent' });
  const { items, error } = await drain(stream);
  return { items: items as AudioChunk[], error, result: await stream.result.catch(() => undefined) };
}

describe('a WAV body labelled as raw samples is read as WAV', () => {
  it('isWavHeader: RIFF, 4 size bytes, WAVE; 12 bytes needed', () => {
    const header = wav(16_000, Buffer.alloc(0));
    expect(isWavHeader(header)).toBe(true);
    expect(isWavHeader(header.subarray(0, 11))).toBe(false);
    expect(isWavHeader(Buffer.from('RIFF\0\0\0\0AVI LIST', 'latin1'))).toBe(false);
    expect(isWavHeader(PCM_24K)).toBe(false);
  });

  it('the reference: the same WAV under audio/wav, 16 kHz converted to 4800 bytes at 24 kHz', async () => {
    const wire = await server(wav(16_000, PCM_16K), 'audio/wav');
    const { items, error } = await speak({ a: openai(wire.url) });
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).byteLength).toBe(4800);
  });

  for (const [name, config] of [
    ['OpenAI-compatible /audio/speech', openai],
    ['Cartesia /tts/bytes', cartesia],
  ] as const) {
    for (const type of ['application/octet-stream', 'audio/pcm', undefined]) {
      for (const pieces of [[], [5, 3, 50]]) {
        it(`${name}, Content-Type ${type ?? '(none)'}, header in ${pieces.length + 1} writes: the same bytes as audio/wav`, async () => {
          const reference = await server(wav(16_000, PCM_16K), 'audio/wav');
          const want = concat((await speak({ a: openai(reference.url) })).items.map((c) => c.data));
          const wire = await server(wav(16_000, PCM_16K), type, pieces);
          const { items, error } = await speak({ a: config(wire.url) });
          expect(error).toBeUndefined();
          const got = concat(items.map((c) => c.data));
          expect(got.toString('latin1', 0, 4)).not.toBe('RIFF');
          expect(got.byteLength).toBe(4800);
          expect(got.equals(want)).toBe(true);
          expect(items.map((c) => c.format)).toEqual(
            items.map(() => ({ encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 })),
          );
        });
      }
    }
  }

  it('raw PCM under octet-stream still passes as it is', async () => {
    const wire = await server(PCM_24K, 'application/octet-stream', [3]);
    const { items, error } = await speak({ a: openai(wire.url) });
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(PCM_24K)).toBe(true);
  });

  it('a WAV it cannot read (8-bit samples) under octet-stream: ProtocolError, and the next provider serves', async () => {
    const bad = await server(wav(16_000, Buffer.alloc(1600, 0x80), { bits: 8 }), 'application/octet-stream');
    const good = await server(PCM_24K, 'audio/pcm');
    const { items, error, result } = await speak({ bad: openai(bad.url), good: openai(good.url) });
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(PCM_24K)).toBe(true);
    expect(result?.provider).toBe('good');
    const first = result!.attempts[0]!.error as Error;
    expect(first).toBeInstanceOf(ProtocolError);
    expect(first.message).toBe(
      'WAV 8-bit PCM is not supported: voxroute reads 16-bit PCM, 32-bit float, 8-bit mu-law and 8-bit A-law',
    );
  });
});
