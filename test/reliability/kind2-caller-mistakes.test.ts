/**
 * Kind 2, caller mistakes blamed on providers: a bad request fails with a RequestError naming
 * the field before any provider is contacted, and an error of the caller's own text or audio
 * stream reaches the caller as the cause of a RequestError, charged to no provider (no failure
 * counted, no circuit breaker opened). Servers speak the wire on their own (loopback).
 */
import { describe, expect, it } from 'vitest';
import {
  type ChatRequest,
  encodeWav,
  RequestError,
  type RouterConfig,
  type SttRequest,
  type TtsRequest,
} from '../../src/index.js';
import { answerChat, answerPcm, drain, httpServer, pcmSignal, router } from '../cases/wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

/** One OpenAI-compatible server for tts, stt (batch) and chat, counting requests. */
async function allInOne() {
  return httpServer(async (req, res) => {
    for await (const _ of req) {
      // read the request body
    }
    if (req.url?.includes('/audio/speech')) answerPcm(res, AUDIO);
    else if (req.url?.includes('/audio/transcriptions'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello there"}');
    else answerChat(res, 'Hello.');
  });
}

function config(baseUrl: string): RouterConfig {
  const provider = {
    kind: 'openai-compatible' as const,
    baseUrl,
    tts: { voices: { agent: 'alloy' } },
    stt: { model: 'whisper', streaming: false },
    chat: { models: { fast: 'gpt' } },
  };
  const route = { providers: ['a', 'b'], strategy: 'priority' as const, firstChunkTimeoutMs: false as const };
  return {
    providers: { a: provider, b: provider },
    routes: { tts: route, stt: route, chat: route },
  };
}

async function* bytes(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(640);
}

const tts = (over: Record<string, unknown>) =>
  ({ text: 'Hello there.', voice: 'agent', ...over }) as TtsRequest;
const stt = (over: Record<string, unknown>) => ({ audio: bytes(), format: FORMAT, ...over }) as SttRequest;
const chat = (over: Record<string, unknown>) =>
  ({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }], ...over }) as ChatRequest;

const badRequests: Array<[string, 'tts' | 'stt' | 'chat', () => unknown, string]> = [
  [
    'sample rate 0',
    'tts',
    () => tts({ format: { encoding: 'pcm_s16le', sampleRate: 0 } }),
    'format.sampleRate',
  ],
  [
    'sample rate NaN',
    'tts',
    () => tts({ format: { encoding: 'pcm_s16le', sampleRate: Number.NaN } }),
    'format.sampleRate',
  ],
  [
    'sample rate 7',
    'stt',
    () => stt({ format: { encoding: 'pcm_s16le', sampleRate: 7 } }),
    'format.sampleRate',
  ],
  ['encoding mp3', 'tts', () => tts({ format: { encoding: 'mp3', sampleRate: 24_000 } }), 'format.encoding'],
  [
    'encoding opus',
    'stt',
    () => stt({ format: { encoding: 'opus', sampleRate: 48_000 } }),
    'format.encoding',
  ],
  [
    'stereo',
    'tts',
    () => tts({ format: { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 2 } }),
    'format.channels',
  ],
  ['missing format', 'stt', () => stt({ format: undefined }), 'format'],
  ['audio not a stream', 'stt', () => stt({ audio: new Uint8Array(10) }), 'audio'],
  ['text null', 'tts', () => tts({ text: null }), 'text'],
  ['invalid language', 'tts', () => tts({ language: 'not a tag!' }), 'language'],
  ['invalid stt language', 'stt', () => stt({ language: '' }), 'language'],
  ['messages null', 'chat', () => chat({ messages: null }), 'messages'],
  [
    'message content null',
    'chat',
    () => chat({ messages: [{ role: 'user', content: null }] }),
    'messages.0.content',
  ],
  ['temperature NaN', 'chat', () => chat({ temperature: Number.NaN }), 'temperature'],
  ['deadlineMs -1', 'chat', () => chat({ deadlineMs: -1 }), 'deadlineMs'],
  // Past the longest timer Node honours, a setTimeout fires at once: the call would end at once.
  ['deadlineMs 3e9', 'tts', () => tts({ deadlineMs: 3e9 }), 'deadlineMs'],
  ['tts firstChunkTimeoutMs -1', 'tts', () => tts({ firstChunkTimeoutMs: -1 }), 'firstChunkTimeoutMs'],
  [
    'tts firstChunkTimeoutMs NaN',
    'tts',
    () => tts({ firstChunkTimeoutMs: Number.NaN }),
    'firstChunkTimeoutMs',
  ],
  [
    'tts firstChunkTimeoutMs "soon"',
    'tts',
    () => tts({ firstChunkTimeoutMs: 'soon' }),
    'firstChunkTimeoutMs',
  ],
  ['tts firstChunkTimeoutMs 0', 'tts', () => tts({ firstChunkTimeoutMs: 0 }), 'firstChunkTimeoutMs'],
  ['stt firstChunkTimeoutMs 3e9', 'stt', () => stt({ firstChunkTimeoutMs: 3e9 }), 'firstChunkTimeoutMs'],
  ['chat firstChunkTimeoutMs -1', 'chat', () => chat({ firstChunkTimeoutMs: -1 }), 'firstChunkTimeoutMs'],
  ['tts hedgeAfterMs -5', 'tts', () => tts({ hedgeAfterMs: -5 }), 'hedgeAfterMs'],
  ['chat hedgeAfterMs "x"', 'chat', () => chat({ hedgeAfterMs: 'x' }), 'hedgeAfterMs'],
  ['stt hedgeAfterMs Infinity', 'stt', () => stt({ hedgeAfterMs: Number.POSITIVE_INFINITY }), 'hedgeAfterMs'],
  ['maxTokens 1.5', 'chat', () => chat({ maxTokens: 1.5 }), 'maxTokens'],
  ['maxTokens 1e300', 'chat', () => chat({ maxTokens: 1e300 }), 'maxTokens'],
  ['temperature "1"', 'chat', () => chat({ temperature: '1' }), 'temperature'],
  ['speed 0', 'tts', () => tts({ speed: 0 }), 'speed'],
  ['speed 10', 'tts', () => tts({ speed: 10 }), 'speed'],
  ['speed 0.2', 'tts', () => tts({ speed: 0.2 }), 'speed'],
  ['stt language "english!!"', 'stt', () => stt({ language: 'english!!' }), 'language'],
  ['tts language "../../x"', 'tts', () => tts({ language: '../../x' }), 'language'],
];

describe('kind 2: caller mistakes are the caller’s, found before any provider', () => {
  it.each(badRequests)(
    '%s: RequestError naming the field, no provider contacted',
    async (_n, cap, make, field) => {
      const server = await allInOne();
      const r = router(config(server.url));
      const stream = (r[cap] as (req: unknown) => AsyncIterable<unknown> & { result: Promise<unknown> })(
        make(),
      );
      const { items, error } = await drain(stream);
      expect(items).toEqual([]);
      expect(RequestError.isInstance(error)).toBe(true);
      expect((error as RequestError).field).toBe(field);
      expect((error as RequestError).retryable).toBe(false);
      expect((error as RequestError).code).toBe('REQUEST_INVALID');
      await expect(stream.result).rejects.toBe(error);
      expect(server.hits).toBe(0);
      expect(r.stats().providers).toEqual([]);
    },
  );

  it.each([
    [
      { firstChunkTimeoutMs: -1 },
      "Invalid request field 'firstChunkTimeoutMs': expected a number of ms above 0, got -1",
    ],
    [
      { firstChunkTimeoutMs: 'soon' },
      `Invalid request field 'firstChunkTimeoutMs': expected a number of ms above 0, got "soon"`,
    ],
    [{ hedgeAfterMs: -5 }, "Invalid request field 'hedgeAfterMs': expected a number of ms from 0, got -5"],
    [
      { deadlineMs: 3e9 },
      "Invalid request field 'deadlineMs': expected at most 2147483647 ms (the longest timer Node.js supports), got 3000000000",
    ],
    [{ maxTokens: 1.5 }, "Invalid request field 'maxTokens': expected a whole number above 0, got 1.5"],
    [{ temperature: 3 }, "Invalid request field 'temperature': expected a number from 0 to 2, got 3"],
    [
      { messages: [] },
      "Invalid request field 'messages': expected a non-empty array of messages, got an empty array",
    ],
    [
      { messages: null },
      "Invalid request field 'messages': expected a non-empty array of messages, got null",
    ],
  ])('the message of %o says what the field takes', async (over, message) => {
    const server = await allInOne();
    const r = router(config(server.url));
    const { error } = await drain(r.chat(chat(over)));
    expect((error as Error).message).toBe(message);
    expect(server.hits).toBe(0);
  });

  it('tts speed outside 0.25..4: the message names the range', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    const { error } = await drain(r.tts(tts({ speed: 10 })));
    expect((error as Error).message).toBe(
      "Invalid request field 'speed': expected a number from 0.25 to 4, got 10",
    );
    expect(server.hits).toBe(0);
  });

  it('route [a, b] with a healthy a: firstChunkTimeoutMs -1 is a RequestError, a is neither dropped nor charged', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    const stream = r.tts(tts({ firstChunkTimeoutMs: -1 }));
    const { items, error } = await drain(stream);
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('firstChunkTimeoutMs');
    expect(server.hits).toBe(0);
    expect(r.stats().providers).toEqual([]);
    // The same call with a valid deadline is served by a.
    const ok = r.tts(tts({ firstChunkTimeoutMs: 5_000, hedgeAfterMs: 0 }));
    const served = await drain(ok);
    expect(served.error).toBeUndefined();
    expect((await ok.result).provider).toBe('a');
  });

  it('stt audio items that are not bytes: RequestError on audio, no provider charged', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    async function* words() {
      yield 'not audio' as unknown as Uint8Array;
    }
    const { error } = await drain(r.stt({ audio: words(), format: FORMAT }));
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('audio');
    expect(server.hits).toBe(0);
    expect(r.stats().providers.every((p) => p.errors === 0 && p.breaker === 'closed')).toBe(true);
  });

  it('an stt AudioChunk in another format: RequestError naming both formats, no provider contacted', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    async function* chunks() {
      yield { data: new Uint8Array(160), format: { encoding: 'mulaw' as const, sampleRate: 8000 } };
    }
    const { items, error } = await drain(r.stt({ audio: chunks(), format: FORMAT }));
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('audio');
    expect((error as Error).message).toBe(
      "Invalid request field 'audio': an AudioChunk of the audio stream is mulaw@8000Hz, not the request format pcm_s16le@16000Hz (convert it with createAudioConverter)",
    );
    expect(server.hits).toBe(0);
  });

  it.each([
    ['in one chunk', [44 + 640]],
    ['split before byte 12', [5, 4, 3, 672]],
  ])('a WAV file given to stt as raw samples (%s): RequestError pointing to readWav', async (_n, sizes) => {
    const server = await allInOne();
    const r = router(config(server.url));
    const wav = encodeWav(FORMAT, new Uint8Array(640));
    async function* parts() {
      let at = 0;
      for (const size of sizes) {
        yield wav.subarray(at, at + size);
        at += size;
      }
    }
    const { items, error } = await drain(r.stt({ audio: parts(), format: FORMAT }));
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('audio');
    expect((error as Error).message).toBe(
      "Invalid request field 'audio': the audio starts with a WAV file header (RIFF....WAVE), but stt takes raw samples in the request's format: read the file with readWav() and pass its data and format",
    );
    for (const p of r.stats().providers) expect([p.errors, p.breaker]).toEqual([0, 'closed']);
    if (sizes.length === 1) expect(server.hits).toBe(0);
  });

  it.each([
    ['MP3 (ID3 tag)', [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0x0f, 0x76]],
    ['Ogg', [0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 0, 0, 0, 0]],
    ['FLAC', [0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0x22]],
    ['WebM/Matroska', [0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]],
  ])(
    'an encoded file given to stt as raw samples (%s): RequestError naming it, no provider contacted',
    async (what, magic) => {
      const server = await allInOne();
      const r = router(config(server.url));
      const bytes = new Uint8Array(640);
      bytes.set(magic);
      const { items, error } = await drain(
        r.stt({
          audio: (async function* () {
            yield bytes;
          })(),
          format: FORMAT,
        }),
      );
      expect(items).toEqual([]);
      expect(RequestError.isInstance(error)).toBe(true);
      expect((error as RequestError).field).toBe('audio');
      expect((error as Error).message).toBe(
        `Invalid request field 'audio': the audio starts like an encoded file (${what}), but stt takes raw samples in the request's format (PCM, mu-law or A-law): decode it first`,
      );
      expect(server.hits).toBe(0);
    },
  );

  it('raw samples that merely start with RIFF are audio', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    const bytes = new Uint8Array(640);
    bytes.set([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x46]); // RIFF....WAVF
    const stream = r.stt({
      audio: (async function* () {
        yield bytes;
      })(),
      format: FORMAT,
    });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => e.text)).toEqual(['hello there']);
  });

  it('the caller’s tts text stream throws: that error is the cause, no provider charged', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    const boom = new TypeError('token source broke');
    async function* text() {
      yield 'Hello there. ';
      yield 'And then';
      throw boom;
    }
    const breakers: unknown[] = [];
    r.on('breaker', (e) => breakers.push(e));
    const stream = r.tts({ text: text(), voice: 'agent' });
    const { error } = await drain(stream);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
    expect((error as RequestError).cause).toBe(boom);
    expect(String(error)).not.toMatch(/Provider '/);
    await expect(stream.result).rejects.toBe(error);
    expect(breakers).toEqual([]);
    for (const p of r.stats().providers) {
      expect(p.errors).toBe(0);
      expect(p.breaker).toBe('closed');
    }
  });

  it('the caller’s stt audio stream throws: that error is the cause, no fallback, no provider charged', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    const boom = new Error('microphone unplugged');
    async function* audio() {
      yield new Uint8Array(3200);
      throw boom;
    }
    const stream = r.stt({ audio: audio(), format: FORMAT });
    const { error } = await drain(stream);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('audio');
    expect((error as RequestError).cause).toBe(boom);
    for (const p of r.stats().providers) {
      expect(p.errors).toBe(0);
      expect(p.breaker).toBe('closed');
    }
    // b was never tried: the caller's failure is no reason to fall back.
    expect(server.hits).toBe(0);
  });

  it('ten calls with a throwing text stream open no breaker of a healthy provider', async () => {
    const server = await allInOne();
    const r = router(config(server.url));
    for (let i = 0; i < 10; i++) {
      async function* text() {
        yield 'Hi.';
        throw new Error('caller bug');
      }
      const { error } = await drain(r.tts({ text: text(), voice: 'agent' }));
      expect(RequestError.isInstance(error)).toBe(true);
    }
    const { items, error } = await drain(r.tts({ text: 'Fine now.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(items.length).toBeGreaterThan(0);
    expect((await r.stats()).providers.every((p) => p.breaker === 'closed')).toBe(true);
  });
});
