/**
 * A caller's mistake with a stream field: stt() (and voiceTurn()) audio given whole, as one
 * Buffer or Uint8Array (a file read with readFileSync), or as an array of chunks, and tts() text
 * given as an array of strings. The RequestError names what was given (`a Buffer`, not `an
 * object`) and how to pass it, before any provider is contacted. The server speaks the wire on
 * its own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { RequestError, type SttRequest, type TtsRequest, voiceTurn } from '../../src/index.js';
import { answerChat, answerPcm, drain, httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const HINT = 'pass an async iterable of its chunks, such as (async function* () { yield audio; })()';

async function setup() {
  const server = await httpServer(async (req, res) => {
    for await (const _ of req) {
      // read the request body
    }
    if (req.url?.includes('/audio/speech')) answerPcm(res, Buffer.alloc(4800));
    else if (req.url?.includes('/audio/transcriptions'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello"}');
    else answerChat(res, 'Hello.');
  });
  const provider = {
    kind: 'openai-compatible' as const,
    baseUrl: server.url,
    tts: { voices: { agent: 'alloy' } },
    stt: { model: 'whisper', streaming: false },
    chat: { models: { fast: 'gpt' } },
  };
  const r = router({
    providers: { a: provider },
    routes: { tts: { providers: ['a'] }, stt: { providers: ['a'] }, chat: { providers: ['a'] } },
  });
  return { server, r };
}

describe('a stream field given whole: RequestError naming what was given, no provider contacted', () => {
  const audioCases: Array<[string, unknown, string]> = [
    ['a Buffer', Buffer.alloc(3200), `got a Buffer (the whole audio at once: ${HINT})`],
    ['a Uint8Array', new Uint8Array(3200), `got a Uint8Array (the whole audio at once: ${HINT})`],
    ['an Int16Array', new Int16Array(1600), `got an Int16Array (the whole audio at once: ${HINT})`],
    [
      'an array of chunks',
      [new Uint8Array(3200), new Uint8Array(3200)],
      'got an array (a sync iterable: pass an async iterable, such as (async function* () { yield* chunks; })())',
    ],
  ];
  for (const [what, audio, shown] of audioCases)
    it(`stt audio as ${what}`, async () => {
      const { server, r } = await setup();
      const { items, error } = await drain(r.stt({ audio, format: FORMAT } as unknown as SttRequest));
      expect(items).toEqual([]);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).field).toBe('audio');
      expect((error as RequestError).message).toBe(
        `Invalid request field 'audio': expected an AsyncIterable of Uint8Array or AudioChunk, ${shown}`,
      );
      expect(server.hits).toBe(0);
    });

  it('voiceTurn audio as a Buffer', async () => {
    const { server, r } = await setup();
    const turn = voiceTurn(r, {
      audio: Buffer.alloc(3200) as unknown as AsyncIterable<Uint8Array>,
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
    });
    const { error } = await drain(turn);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe(
      `Invalid request field 'audio': expected an AsyncIterable of Uint8Array or AudioChunk, got a Buffer (the whole audio at once: ${HINT})`,
    );
    expect(server.hits).toBe(0);
  });

  it('tts text as an array of strings', async () => {
    const { server, r } = await setup();
    const { error } = await drain(
      r.tts({ text: ['Hello ', 'there.'], voice: 'agent' } as unknown as TtsRequest),
    );
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).field).toBe('text');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'text': expected a string or an AsyncIterable<string>, got an array (a sync iterable: pass an async iterable, such as (async function* () { yield* chunks; })())",
    );
    expect(server.hits).toBe(0);
  });

  it('tts text as bytes', async () => {
    const { server, r } = await setup();
    const { error } = await drain(
      r.tts({ text: Buffer.from('Hello.'), voice: 'agent' } as unknown as TtsRequest),
    );
    expect((error as RequestError).message).toBe(
      "Invalid request field 'text': expected a string or an AsyncIterable<string>, got a Buffer (bytes, not text: decode them to a string)",
    );
    expect(server.hits).toBe(0);
  });

  it('stays as before: a value that is no collection', async () => {
    const { r } = await setup();
    const { error } = await drain(r.stt({ audio: 42, format: FORMAT } as unknown as SttRequest));
    expect((error as RequestError).message).toBe(
      "Invalid request field 'audio': expected an AsyncIterable of Uint8Array or AudioChunk, got 42",
    );
  });
});
