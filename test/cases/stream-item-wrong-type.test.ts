/**
 * A caller's mistake inside a stream field: an item of stt() audio that is not a Uint8Array
 * (an Int16Array of samples, an ArrayBuffer, a number), or an item of tts() text that is not a
 * string (a chat event piped in as it is, bytes). The RequestError says what the item was
 * (its class or type, never its content) and how to pass it, before any provider is contacted.
 * The server speaks the wire on its own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { RequestError, type SttRequest, type TtsRequest } from '../../src/index.js';
import { answerChat, answerPcm, drain, httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const BYTES = 'pass its bytes as a Uint8Array, e.g. new Uint8Array(x.buffer, x.byteOffset, x.byteLength)';

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
  const r = router({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: server.url,
        tts: { voices: { agent: 'alloy' } },
        stt: { model: 'whisper', streaming: false },
      },
    },
    routes: { tts: { providers: ['a'] }, stt: { providers: ['a'] } },
  });
  return { server, r };
}

async function* once(item: unknown): AsyncGenerator<unknown> {
  yield item;
}

describe('an item of the audio stream that is not a Uint8Array or an AudioChunk', () => {
  const cases: Array<[string, unknown, string]> = [
    ['an Int16Array of samples', new Int16Array(1600), `an Int16Array (${BYTES})`],
    ['an ArrayBuffer', new ArrayBuffer(3200), `an ArrayBuffer (${BYTES})`],
    ['a number', 7, 'a number'],
    ['a string', 'sk-test-SECRET123456', 'a string'],
    [
      'an AudioChunk without its format',
      { data: new Uint8Array(4) },
      'an object that is not an AudioChunk (one has data, a Uint8Array, and format)',
    ],
  ];
  for (const [what, item, shown] of cases)
    it(`names ${what} and contacts no provider`, async () => {
      const { server, r } = await setup();
      const { items, error } = await drain(
        r.stt({ audio: once(item), format: FORMAT } as unknown as SttRequest),
      );
      expect(items).toEqual([]);
      expect(RequestError.isInstance(error)).toBe(true);
      expect((error as RequestError).field).toBe('audio');
      expect((error as RequestError).message).toBe(
        `Invalid request field 'audio': an item of the audio stream is neither a Uint8Array nor an AudioChunk: got ${shown}`,
      );
      expect(server.hits).toBe(0);
    });
});

describe('an item of the text stream that is not a string', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a number', 42, 'a number'],
    ['bytes', new Uint8Array([72, 105]), 'a Uint8Array (bytes, not text: decode them to a string)'],
    [
      'an event of router.chat()',
      { type: 'text-delta', text: 'Hi.' },
      "a chat event { type: 'text-delta' } (yield its text, not the event)",
    ],
    ['another object', { content: 'Hi.' }, 'an object'],
  ];
  for (const [what, item, shown] of cases)
    it(`names ${what} and contacts no provider`, async () => {
      const { server, r } = await setup();
      const { items, error } = await drain(
        r.tts({ text: once(item), voice: 'agent' } as unknown as TtsRequest),
      );
      expect(items).toEqual([]);
      expect(RequestError.isInstance(error)).toBe(true);
      expect((error as RequestError).field).toBe('text');
      expect((error as RequestError).message).toBe(
        `Invalid request field 'text': an item of the text stream is not a string: got ${shown}`,
      );
      expect(server.hits).toBe(0);
    });
});
