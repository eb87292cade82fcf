/**
 * C11 (delivered format differs from the one asked for), the raw-label sibling: a speech server
 * that ignored the sample rate asked for says so in a raw Content-Type (`audio/pcm; rate=16000`,
 * `audio/L16; rate=16000`, `audio/basic`). Every HTTP TTS wire that reads a raw body labels
 * the bytes with the format the type names, so the router converts them: the caller gets the
 * same bytes as from a WAV file of the same audio, never the 16 kHz bytes under a 24 kHz label
 * (played fast and high). The servers speak HTTP on their own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/index.js';
import { type AudioChunk, type AudioFormat, ProtocolError, type RouterConfig } from '../../src/index.js';
import { concat, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

type ProviderConfig = RouterConfig['providers'][string];

/** 0.1 s of PCM s16le at 16 kHz: 3200 bytes. */
const PCM16K = pcmSignal(1600, 16_000, 2);
const FORMAT16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
const WAV16K = Buffer.from(encodeWav(FORMAT16K, PCM16K));

const VOICES = { voices: { agent: 'v' } };
/** The HTTP TTS wires whose answer is the raw audio itself. */
const WIRES: Array<{
  name: string;
  provider: (url: string) => ProviderConfig;
  /** It always asks the provider for PCM s16le (the router converts to what the caller asked). */
  asksPcm?: true;
  /** It reads `audio/L16` as little-endian PCM. */
  reads16?: true;
}> = [
  {
    name: 'OpenAI-compatible /audio/speech (response_format pcm)',
    asksPcm: true,
    provider: (url) => ({
      kind: 'openai-compatible',
      baseUrl: `${url}/v1`,
      tts: { ...VOICES, responseFormat: 'pcm' },
    }),
  },
  {
    name: 'Cartesia /tts/bytes',
    provider: (url) => ({
      kind: 'cartesia',
      baseUrl: url,
      apiKey: 'sk_car_c11',
      tts: { ...VOICES, transport: 'bytes' },
    }),
  },
  {
    name: 'ElevenLabs /stream',
    reads16: true,
    provider: (url) => ({
      kind: 'elevenlabs',
      baseUrl: url,
      apiKey: 'xi-c11',
      tts: { ...VOICES, transport: 'http' },
    }),
  },
  {
    name: 'Deepgram /v1/speak',
    reads16: true,
    provider: (url) => ({ kind: 'deepgram', baseUrl: url, apiKey: 'dg-c11', tts: VOICES }),
  },
];

/** What the caller gets when `wire`'s server answers `body` under `contentType`, asked for `format`. */
async function speak(
  provider: (url: string) => ProviderConfig,
  contentType: string,
  body: Buffer,
  format: AudioFormat,
) {
  const server = await httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(body.byteLength) });
    res.end(body);
  });
  const r = router({ providers: { a: provider(server.url) }, routes: { tts: { providers: ['a'] } } });
  const { items, error } = await drain(r.tts({ text: 'Your table is booked.', voice: 'agent', format }));
  const chunks = items as AudioChunk[];
  return { error, bytes: concat(chunks.map((c) => c.data)), formats: chunks.map((c) => c.format) };
}

const ASKED: AudioFormat[] = [
  { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 },
  { encoding: 'mulaw', sampleRate: 8000, channels: 1 },
];

describe('C11: a raw Content-Type naming another sample rate is converted from, never passed under the rate asked for', () => {
  // audio/L16 is refused by the OpenAI-compatible and /tts/bytes adapters (big-endian by
  // RFC 2586; see kind4-wrong-format-label for the other two), and audio/pcm names no
  // encoding: with mu-law asked it is read as mu-law there (see rawAnswerFormat).
  for (const wire of WIRES)
    for (const asked of ASKED)
      for (const type of ['audio/pcm; rate=16000', 'audio/L16; rate=16000'])
        if (
          (type.startsWith('audio/pcm') || wire.reads16) &&
          (type.startsWith('audio/L16') || asked.encoding !== 'mulaw' || wire.asksPcm)
        )
          it(`C11: ${wire.name}, asked ${asked.encoding} ${asked.sampleRate} Hz, answered 16 kHz PCM as '${type}': the bytes of the same audio as a WAV`, async () => {
            const reference = await speak(wire.provider, 'audio/wav', WAV16K, asked);
            expect(reference.error).toBeUndefined();
            // 0.1 s at the rate asked for, in whole samples of the encoding asked for.
            expect(reference.bytes.byteLength).toBe(
              (asked.sampleRate / 10) * (asked.encoding === 'mulaw' ? 1 : 2),
            );
            const labelled = await speak(wire.provider, type, PCM16K, asked);
            expect(labelled.error).toBeUndefined();
            expect(labelled.bytes.byteLength).toBe(reference.bytes.byteLength);
            expect(labelled.bytes.equals(reference.bytes)).toBe(true);
            expect(new Set(labelled.formats.map((f) => `${f.encoding}@${f.sampleRate}`))).toEqual(
              new Set([`${asked.encoding}@${asked.sampleRate}`]),
            );
          });
});

describe('C11: a raw Content-Type that cannot label the bytes is refused, and the next provider serves', () => {
  for (const wire of WIRES.filter((w) => !w.reads16))
    for (const type of ['audio/pcm; rate=16000; channels=2', 'audio/L16; rate=16000'])
      it(`C11: ${wire.name} answering '${type}': a ProtocolError, the backup speaks`, async () => {
        const a = await httpServer(async (req, res) => {
          await readBody(req);
          res.writeHead(200, { 'content-type': type, 'content-length': String(PCM16K.byteLength) });
          res.end(PCM16K);
        });
        const backupAudio = pcmSignal(2400, 24_000, 3);
        const b = await httpServer(async (req, res) => {
          await readBody(req);
          res.writeHead(200, { 'content-type': 'audio/pcm' }).end(backupAudio);
        });
        const r = router({
          providers: {
            a: wire.provider(a.url),
            b: {
              kind: 'openai-compatible',
              baseUrl: `${b.url}/v1`,
              tts: { ...VOICES, responseFormat: 'pcm' },
            },
          },
          routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
        });
        const stream = r.tts({ text: 'Your table is booked.', voice: 'agent', format: ASKED[0]! });
        const { items, error } = await drain(stream);
        expect(error).toBeUndefined();
        expect(concat((items as AudioChunk[]).map((c) => c.data)).equals(backupAudio)).toBe(true);
        const result = await stream.result;
        expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
          ['a', 'failed'],
          ['b', 'success'],
        ]);
        expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
        expect((result.attempts[0]!.error as Error).message).toContain(`'${type}'`);
      });
});

describe('C11: a raw Content-Type that names no encoding but another rate, for a mu-law request, is refused', () => {
  // `audio/pcm; rate=16000` answering a request for mu-law at 8 kHz: the bytes may be 16-bit
  // PCM (what `audio/pcm` means by itself) or mu-law at the wrong rate; read as mu-law they were
  // noise if PCM. The wires that ask the provider for mu-law itself refuse it; the backup speaks.
  for (const wire of WIRES.filter((w) => !w.asksPcm))
    it(`C11: ${wire.name}, asked mulaw 8000 Hz, answered 'audio/pcm; rate=16000': a ProtocolError, the backup speaks`, async () => {
      const a = await httpServer(async (req, res) => {
        await readBody(req);
        res.writeHead(200, {
          'content-type': 'audio/pcm; rate=16000',
          'content-length': String(PCM16K.byteLength),
        });
        res.end(PCM16K);
      });
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'audio/pcm' }).end(pcmSignal(2400, 24_000, 3));
      });
      const r = router({
        providers: {
          a: wire.provider(a.url),
          b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { ...VOICES, responseFormat: 'pcm' } },
        },
        routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
      });
      const stream = r.tts({ text: 'Your table is booked.', voice: 'agent', format: ASKED[1]! });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      // b's 0.1 s at 24 kHz, converted to mu-law at 8 kHz: 800 bytes, all of them b's.
      expect(concat((items as AudioChunk[]).map((c) => c.data)).byteLength).toBe(800);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
      expect((result.attempts[0]!.error as Error).message).toMatch(
        / has Content-Type 'audio\/pcm; rate=16000', not mulaw@8000Hz$/,
      );
    });
});
