/**
 * A body that is not raw samples, under no Content-Type or a generic one, is never played as
 * PCM. Every HTTP TTS kind (OpenAI-compatible /audio/speech, ElevenLabs HTTP stream, Deepgram
 * /v1/speak, Cartesia /tts/bytes) sniffs the first bytes of a raw answer: an MP3 (ID3 tag, or
 * two MPEG frame headers), Ogg, FLAC, WebM, a RIFF file other than WAVE, or a JSON/HTML error
 * body is a retryable ProtocolError before any byte is yielded, and the next provider serves.
 * Raw PCM that merely starts like one of them (one frame header, `{` then binary, `ID3` with
 * no valid version) still passes as it is. The servers speak each wire on their own
 * (node:http), and msw serves the same answers to the fetch transport.
 */
import { http, HttpResponse as MswResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type AudioChunk, ProtocolError, type ProviderConfig } from '../../src/index.js';
import { createCartesiaAdapter } from '../../src/providers/cartesia/index.js';
import { createDeepgramAdapter } from '../../src/providers/deepgram/index.js';
import { createElevenLabsAdapter } from '../../src/providers/elevenlabs/index.js';
import { createOpenAiAdapter } from '../../src/providers/openai/index.js';
import { sniffBodyHead } from '../../src/providers/shared/body-signature.js';
import { sniffedBodyAudio } from '../../src/providers/shared/sniffed-body-audio.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { collectUntilError } from '../helpers/index.js';
import { mswFetchTransport } from '../helpers/msw-fetch.js';
import { concat, drain, httpServer, pcmSignal, router } from './wire/servers.js';

/** An MPEG-1 Layer III frame of 417 bytes (128 kbps, 44.1 kHz): header FF FB 90 64. */
const frame = () => {
  const f = Buffer.alloc(417, 0x55);
  f.writeUInt32BE(0xfffb9064, 0);
  return f;
};
const ID3 = Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x0a', 'latin1');
const JSON_ERROR = Buffer.from(
  JSON.stringify({ error: { message: 'quota exceeded for this voice', type: 'insufficient_quota' } }),
);

/** Each body, and what the error names it. */
const BODIES: ReadonlyArray<readonly [string, Buffer, string]> = [
  ['MP3 with an ID3 tag', Buffer.concat([ID3, Buffer.alloc(10), frame(), frame()]), 'MP3 (ID3 tag)'],
  ['MP3 frames, no tag', Buffer.concat([frame(), frame(), frame()]), 'MP3 (MPEG frames)'],
  ['Ogg', Buffer.concat([Buffer.from('OggS\x00\x02', 'latin1'), Buffer.alloc(4000, 0x33)]), 'Ogg'],
  ['FLAC', Buffer.concat([Buffer.from('fLaC\x00\x00\x00\x22', 'latin1'), Buffer.alloc(600, 7)]), 'FLAC'],
  [
    'a RIFF AVI file',
    Buffer.concat([Buffer.from('RIFF\x00\x10\x00\x00AVI LIST', 'latin1'), Buffer.alloc(100)]),
    "a RIFF 'AVI ' file",
  ],
  ['a JSON error', JSON_ERROR, 'JSON text'],
  ['an HTML page', Buffer.from('<!DOCTYPE html><html><body>Bad gateway</body></html>'), 'HTML or XML text'],
];

const PCM_24K = pcmSignal(2400, 24_000);

const KINDS: Record<string, (url: string) => ProviderConfig> = {
  'openai-compatible': (url) => ({
    kind: 'openai-compatible',
    baseUrl: `${url}/v1`,
    tts: { voices: { agent: 'v' } },
  }),
  'elevenlabs http': (url) => ({
    kind: 'elevenlabs',
    baseUrl: url,
    apiKey: 'xi-sniff-0123456789',
    tts: { voices: { agent: 'v' }, transport: 'http' },
  }),
  'deepgram /v1/speak': (url) => ({
    kind: 'deepgram',
    baseUrl: url,
    apiKey: 'dg-sniff-0123456789',
    tts: { voices: { agent: 'aura-2-thalia-en' } },
  }),
  'cartesia /tts/bytes': (url) => ({
    kind: 'cartesia',
    baseUrl: url,
    apiKey: 'ca-sniff-0123456789',
    tts: { model: 'sonic-3', voices: { agent: 'v' }, transport: 'bytes' },
  }),
};

/** A server answering 200 with `body` under `contentType` (none when undefined), in `pieces` writes. */
function server(body: Buffer, contentType: string | undefined, pieces: number[] = []) {
  return httpServer((req, res) => {
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

async function speak(providers: Record<string, ProviderConfig>) {
  const stream = router({
    providers,
    routes: { tts: { providers: Object.keys(providers), strategy: 'priority', firstChunkTimeoutMs: false } },
  }).tts({ text: 'Hello there.', voice: 'agent' });
  const { items, error } = await drain(stream);
  return { items: items as AudioChunk[], error, result: await stream.result.catch(() => undefined) };
}

describe('a non-audio body under no or a generic Content-Type is a ProtocolError, and the next provider serves', () => {
  for (const [kind, config] of Object.entries(KINDS)) {
    for (const type of [undefined, 'application/octet-stream']) {
      for (const [name, body, what] of BODIES) {
        it(`${kind}, ${name}, Content-Type ${type ?? '(none)'}`, async () => {
          const a = await server(body, type, [3, 5]);
          const b = await server(PCM_24K, 'audio/pcm');
          const { items, error, result } = await speak({
            a: config(a.url),
            b: KINDS['openai-compatible']!(b.url),
          });
          expect(error).toBeUndefined();
          expect(result?.provider).toBe('b');
          expect(b.hits).toBe(1);
          expect(concat(items.map((c) => c.data)).equals(PCM_24K)).toBe(true);
          const first = result!.attempts[0]!;
          expect(first.provider).toBe('a');
          expect(first.error).toBeInstanceOf(ProtocolError);
          expect((first.error as ProtocolError).retryable).toBe(true);
          expect((first.error as ProtocolError).partialOutput).toBe(false);
          expect((first.error as Error).message).toBe(
            `Audio answer is ${what}, not pcm_s16le@24000Hz (Content-Type ${type ? `'${type}'` : 'none'})`,
          );
        });
      }
    }
  }

  for (const [kind, config] of Object.entries(KINDS)) {
    it(`${kind}: raw PCM that starts like a signature (one frame header, '{' then binary, 'ID3' of no version, 'OggS' of version 1) is played as it is`, async () => {
      for (const start of [
        Buffer.from([0xff, 0xfb, 0x90, 0x64]),
        Buffer.from([0x7b, 0x22, 0x00, 0x81]),
        Buffer.from('ID3\x09\x00\x00', 'latin1'),
        Buffer.from('OggS\x01\x00', 'latin1'),
        Buffer.from('<!\x00\x00', 'latin1'),
      ]) {
        const pcm = Buffer.concat([start, PCM_24K]);
        const a = await server(pcm, 'application/octet-stream', [1]);
        const { items, error, result } = await speak({ a: config(a.url) });
        expect(error).toBeUndefined();
        expect(result?.provider).toBe('a');
        expect(concat(items.map((c) => c.data)).equals(pcm)).toBe(true);
      }
    });
  }

  it('sniffBodyHead: the signatures, and what needs more bytes', () => {
    const kind = (bytes: Buffer, ended = false) => {
      const v = sniffBodyHead(bytes, ended);
      return v.kind === 'foreign' ? v.what : v.kind;
    };
    expect(kind(Buffer.from('RIFF'))).toBe('more');
    expect(kind(Buffer.from('{"a":1}'), true)).toBe('JSON text');
    expect(kind(Buffer.from('{"a":1}'))).toBe('more');
    expect(kind(Buffer.from([1, 2, 3]), true)).toBe('raw');
    expect(kind(Buffer.concat([frame(), Buffer.alloc(8)]).subarray(0, 100))).toBe('more');
    expect(kind(Buffer.concat([frame(), Buffer.alloc(8)]))).toBe('raw');
    expect(kind(frame().subarray(0, 100), true)).toBe('raw');
    expect(kind(Buffer.concat([frame(), frame().subarray(0, 4)]))).toBe('MP3 (MPEG frames)');
    expect(kind(Buffer.from('<?xml version="1.0"?><Error/>'))).toBe('HTML or XML text');
    expect(kind(Buffer.from('<HTML><body>x</body></HTML>'))).toBe('HTML or XML text');
    expect(kind(Buffer.from('[{"error":"x"}]'))).toBe('JSON text');
    expect(kind(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41]))).toBe(
      'raw',
    );
    expect(kind(Buffer.from('\x1a\x45\xdf\xa3\x01\x00\x00\x00\x00\x00\x00\x1f', 'latin1'))).toBe(
      'WebM/Matroska',
    );
    expect(kind(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1'))).toBe('wav');
  });

  it('a mu-law answer labelled audio/basic that starts like an MPEG frame header: its first chunk is yielded without waiting for more bytes', async () => {
    // Mu-law near-silence: FF FB 7B FE FF 7F ... reads as an MPEG-1 Layer III header.
    const first = new Uint8Array([
      0xff, 0xfb, 0x7b, 0xfe, 0xff, 0x7f, 0xfe, 0xff, 0x7e, 0xff, 0xfe, 0x7f, 0xff, 0xfb,
    ]);
    let askedForMore!: () => void;
    const moreAsked = new Promise<'waited for more bytes'>((resolve) => {
      askedForMore = () => resolve('waited for more bytes');
    });
    let pulls = 0;
    const body: AsyncIterator<Uint8Array> & AsyncIterable<Uint8Array> = {
      next: () => {
        pulls++;
        if (pulls === 1) return Promise.resolve({ value: first, done: false });
        askedForMore();
        return new Promise(() => {}); // the provider sends nothing more for now
      },
      [Symbol.asyncIterator]: () => body,
    };
    const ulaw = { encoding: 'mulaw', sampleRate: 8000 } as const;
    const response = {
      status: 200,
      headers: { 'content-type': 'audio/basic' },
      body,
      cancel: async () => {},
    };
    const chunk = sniffedBodyAudio('dg', response, ulaw).then((audio) => audio.next());
    expect(await Promise.race([chunk, moreAsked])).toEqual({
      value: { data: first, format: ulaw },
      done: false,
    });
    expect(sniffBodyHead(first, false, false)).toEqual({ kind: 'raw' });
    // Unlabelled, the same start is held until the next frame header could be there.
    expect(sniffBodyHead(first, false)).toEqual({ kind: 'more' });
  });
});

describe('the same bodies through msw (fetch transport)', () => {
  const BASE = 'https://tts.sniff.example';
  const { msw, attempt } = mswFetchTransport();
  const adapters: Record<string, () => ProviderAdapter> = {
    'openai-compatible': () =>
      createOpenAiAdapter({
        kind: 'openai-compatible',
        name: 'a',
        baseUrl: `${BASE}/v1`,
        tts: { responseFormat: 'pcm', streamFormat: 'audio' },
      }),
    'elevenlabs http': () =>
      createElevenLabsAdapter({
        name: 'a',
        baseUrl: BASE,
        apiKey: 'xi-sniff-0123456789',
        tts: { transport: 'http' },
      }),
    'deepgram /v1/speak': () =>
      createDeepgramAdapter({ name: 'a', baseUrl: BASE, apiKey: 'dg-sniff-0123456789', tts: {} }),
    'cartesia /tts/bytes': () =>
      createCartesiaAdapter({
        name: 'a',
        baseUrl: BASE,
        apiKey: 'ca-sniff-0123456789',
        tts: { model: 'sonic-3', transport: 'bytes' },
      }),
  };
  for (const [kind, adapter] of Object.entries(adapters)) {
    for (const [name, body, what] of BODIES) {
      it(`${kind}, ${name}: ProtocolError, no byte yielded`, async () => {
        msw.use(http.post(`${BASE}/*`, () => new MswResponse(body, { status: 200, headers: {} })));
        const { items, error } = await collectUntilError(
          adapter().tts!.synthesize(
            { text: 'Hello there.', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24_000 } },
            attempt(),
          ),
        );
        expect(items).toEqual([]);
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as Error).message).toMatch(
          new RegExp(`^Audio answer is ${what.replace(/[()]/g, '\\$&')}, `),
        );
      });
    }
  }
});
