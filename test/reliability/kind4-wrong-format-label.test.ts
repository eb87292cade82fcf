/**
 * Wrong format label: a TTS answer's bytes are converted from what its Content-Type names, or
 * refused with a typed error (a retryable ProtocolError, so the route falls back), never
 * yielded under the label of the requested format when the type contradicts it. Deepgram
 * `/v1/speak` and ElevenLabs' HTTP stream, asked for mu-law at 8000 Hz, answer PCM s16le at
 * 24 kHz (or MP3) with various Content-Types. The servers speak HTTP on their own (node:http).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/index.js';
import {
  AllProvidersFailedError,
  type AudioChunk,
  type AudioFormat,
  ProtocolError,
  type RouterConfig,
} from '../../src/index.js';
import { answerPcm, concat, drain, httpServer, pcmSignal, readBody, router } from '../cases/wire/servers.js';
import { ttsRouteWithBackup } from '../cases/wire/tts-route.js';

const MULAW8K: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
const PCM24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
/** 0.1 s of PCM s16le at 24 kHz: 4800 bytes. */
const PCM = pcmSignal(2400, 24_000, 1);
/** The start of an MP3 file: an MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz), then data. */
/** Two MPEG-1 Layer III frames (128 kbps, 44.1 kHz: 417 bytes each). */
const MP3_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413, 0x55)]);
const MP3 = Buffer.concat([MP3_FRAME, MP3_FRAME]);

/** A server answering every request with `body` and `headers`; `paths` records the request URLs. */
async function answering(headers: Record<string, string>, body: Buffer) {
  const paths: string[] = [];
  const wire = await httpServer(async (req, res: ServerResponse) => {
    await readBody(req);
    paths.push(req.url ?? '');
    res.writeHead(200, { ...headers, 'content-length': String(body.byteLength) });
    res.end(body);
  });
  return { url: wire.url, paths, wire };
}

/** An OpenAI-compatible backup speaking PCM s16le at 24 kHz. */
async function backup() {
  return httpServer(async (req, res) => {
    await readBody(req);
    answerPcm(res, PCM);
  });
}

const deepgram = (url: string) =>
  ({
    kind: 'deepgram',
    baseUrl: url,
    apiKey: 'dg_wrong_label_key',
    tts: { voices: { agent: 'aura-2-thalia-en' } },
  }) as const;
const elevenLabs = (url: string) =>
  ({
    kind: 'elevenlabs',
    baseUrl: url,
    apiKey: 'xi_wrong_label_key',
    tts: { voices: { agent: 'el-voice' }, transport: 'http' },
  }) as const;

/** The route of `primary` (`p`) alone, or followed by the backup `b` at `backupUrl`. */
const config = (primary: RouterConfig['providers'][string], backupUrl?: string): RouterConfig =>
  ttsRouteWithBackup('p', primary, backupUrl);

/** Speaks 'Hello there.' as mu-law 8 kHz through `cfg`: the bytes, the formats seen, the error. */
async function speak(cfg: RouterConfig) {
  const r = router(cfg);
  const stream = r.tts({ text: 'Hello there.', voice: 'agent', format: MULAW8K });
  const { items, error } = await drain<AudioChunk>(stream);
  const formats = [...new Set(items.map((c) => `${c.format.encoding}/${c.format.sampleRate}`))];
  return {
    audio: concat(items.map((c) => c.data)),
    formats,
    error,
    result: await stream.result.catch(() => undefined),
  };
}

/** The mu-law 8 kHz the router makes of PCM (from a Deepgram answer that is a WAV file of it). */
async function reference(): Promise<Buffer> {
  const wav = await answering({ 'content-type': 'audio/wav' }, Buffer.from(encodeWav(PCM24K, PCM)));
  const { audio, error } = await speak(config(deepgram(wav.url)));
  expect(error).toBeUndefined();
  return audio;
}

/** The message of the first attempt's error of an AllProvidersFailedError. */
function firstAttemptError(error: unknown): ProtocolError {
  expect(AllProvidersFailedError.isInstance(error)).toBe(true);
  const cause = (error as AllProvidersFailedError).attempts[0]!.error;
  expect(ProtocolError.isInstance(cause)).toBe(true);
  expect((cause as ProtocolError).retryable).toBe(true);
  return cause as ProtocolError;
}

describe('wrong format label: bytes are converted from what the Content-Type names, or refused', () => {
  it('wrong format label: Deepgram answers `audio/L16; rate=24000` to a mu-law 8 kHz request: converted, the same audio as from a WAV of it', async () => {
    const expected = await reference();
    expect(expected.byteLength).toBe(800);
    const server = await answering({ 'content-type': 'audio/l16; rate=24000; channels=1' }, PCM);
    const { audio, formats, error } = await speak(config(deepgram(server.url)));
    expect(error).toBeUndefined();
    expect(server.paths[0]).toContain('encoding=mulaw');
    expect(formats).toEqual(['mulaw/8000']);
    expect(audio.equals(expected)).toBe(true);
  });

  it('wrong format label: Deepgram answers `audio/mpeg` to a mu-law request: a ProtocolError, no bytes; with a backup, the backup speaks', async () => {
    const server = await answering({ 'content-type': 'audio/mpeg' }, PCM);
    const alone = await speak(config(deepgram(server.url)));
    expect(alone.audio.byteLength).toBe(0);
    expect(firstAttemptError(alone.error).message).toBe(
      "Speak answer has Content-Type 'audio/mpeg', not mulaw@8000Hz",
    );

    const b = await backup();
    const withBackup = await speak(config(deepgram(server.url), b.url));
    expect(withBackup.error).toBeUndefined();
    expect(withBackup.audio.equals(await reference())).toBe(true);
    expect(withBackup.result?.provider).toBe('b');
  });

  it('wrong format label: Deepgram answers `audio/x-alaw` (no rate) to a mu-law request: a ProtocolError', async () => {
    const server = await answering({ 'content-type': 'audio/x-alaw' }, Buffer.alloc(800, 0xd5));
    const { audio, error } = await speak(config(deepgram(server.url)));
    expect(audio.byteLength).toBe(0);
    expect(firstAttemptError(error).message).toBe(
      "Speak answer has Content-Type 'audio/x-alaw', not mulaw@8000Hz",
    );
  });

  it('wrong format label: Deepgram `audio/basic` or no Content-Type for a mu-law request: the bytes as they came (what was asked)', async () => {
    const mulaw = Buffer.from(Array.from({ length: 800 }, (_, i) => (i * 7) % 256));
    for (const headers of [{ 'content-type': 'audio/basic' }, {} as Record<string, string>]) {
      const server = await answering(headers, mulaw);
      const { audio, formats, error } = await speak(config(deepgram(server.url)));
      expect(error).toBeUndefined();
      expect(formats).toEqual(['mulaw/8000']);
      expect(audio.equals(mulaw)).toBe(true);
    }
  });

  it('wrong format label: ElevenLabs answers `audio/L16; rate=24000` to `ulaw_8000`: converted, the same audio as from a WAV of it', async () => {
    const expected = await reference();
    const server = await answering({ 'content-type': 'audio/L16;rate=24000' }, PCM);
    const { audio, formats, error } = await speak(config(elevenLabs(server.url)));
    expect(error).toBeUndefined();
    expect(server.paths[0]).toContain('output_format=ulaw_8000');
    expect(formats).toEqual(['mulaw/8000']);
    expect(audio.equals(expected)).toBe(true);
  });

  it('wrong format label: ElevenLabs answers MP3 (`audio/mpeg`, an MPEG frame) or `audio/ogg` to `ulaw_8000`: a ProtocolError; with a backup, the backup speaks', async () => {
    for (const [type, body, message] of [
      ['audio/mpeg', MP3, "Audio answer is MP3 (MPEG frames), not mulaw@8000Hz (Content-Type 'audio/mpeg')"],
      [
        'audio/ogg',
        Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200)]),
        "ElevenLabs answer has Content-Type 'audio/ogg', not mulaw@8000Hz",
      ],
    ] as const) {
      const server = await answering({ 'content-type': type }, body);
      const alone = await speak(config(elevenLabs(server.url)));
      expect(alone.audio.byteLength).toBe(0);
      expect(firstAttemptError(alone.error).message).toBe(message);
      const b = await backup();
      const withBackup = await speak(config(elevenLabs(server.url), b.url));
      expect(withBackup.error).toBeUndefined();
      expect(withBackup.result?.provider).toBe('b');
    }
  });

  it('wrong format label: ElevenLabs `audio/mpeg` whose body is not MP3 (its spec labels every format so) is read as the format asked for', async () => {
    const mulaw = Buffer.from(Array.from({ length: 800 }, (_, i) => (i * 7) % 256));
    const server = await answering({ 'content-type': 'audio/mpeg' }, mulaw);
    const { audio, formats, error } = await speak(config(elevenLabs(server.url)));
    expect(error).toBeUndefined();
    expect(formats).toEqual(['mulaw/8000']);
    expect(audio.equals(mulaw)).toBe(true);
  });
});
