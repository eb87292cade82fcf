/**
 * Every HTTP request voxroute sends asks for an uncompressed body (`accept-encoding: identity`,
 * RFC 9110 12.5.3), since it refuses a compressed one: chat, speech and transcription of an
 * OpenAI-compatible server, Anthropic messages, Cartesia bytes, Deepgram speak, ElevenLabs HTTP,
 * and warmup()'s OPTIONS. A provider whose `headers` name `Accept-Encoding` (any case) sends
 * that value instead, once. The server speaks HTTP on its own (node:http on loopback) and
 * records each request's raw header lines.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { drain, httpServer, router } from './wire/servers.js';

/** Built from parts so that no key-shaped literal is in the tree. */
const KEY = `${'test-'}key-0123456789abcdef`;

/** The values of every Accept-Encoding line of `req`, as sent. */
function acceptEncodings(req: IncomingMessage): string[] {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'accept-encoding') values.push(req.rawHeaders[i + 1]!);
  return values;
}

/** A server that records `METHOD path -> accept-encoding values` and answers 500. */
async function recordingServer() {
  const seen: Record<string, string[]> = {};
  const wire = await httpServer((req, res) => {
    seen[`${req.method} ${req.url!.split('?')[0]}`] = acceptEncodings(req);
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return { wire, seen };
}

const audio = async function* () {
  yield new Uint8Array(3200);
};

describe('accept-encoding: identity on every HTTP request', () => {
  it('each provider kind speaking HTTP, and warmup', async () => {
    const { wire, seen } = await recordingServer();
    const r = router({
      providers: {
        o: {
          kind: 'openai-compatible',
          baseUrl: `${wire.url}/v1`,
          apiKey: KEY,
          chat: { models: { m: 'x' } },
          tts: { voices: { v: 'x' } },
          stt: { model: 'w' },
        },
        an: { kind: 'anthropic', baseUrl: wire.url, apiKey: KEY, chat: { models: { m: 'x' } } },
        c: {
          kind: 'cartesia',
          baseUrl: wire.url,
          apiKey: KEY,
          tts: { voices: { v: 'x' }, transport: 'bytes' },
        },
        d: { kind: 'deepgram', baseUrl: wire.url, apiKey: KEY, tts: { voices: { v: 'x' } } },
        e: {
          kind: 'elevenlabs',
          baseUrl: wire.url,
          apiKey: KEY,
          tts: { voices: { v: 'x' }, transport: 'http' },
        },
      },
      routes: {
        chat: { providers: ['o', 'an'], strategy: 'priority' },
        tts: { providers: ['o', 'c', 'd', 'e'], strategy: 'priority' },
        stt: { providers: ['o'] },
      },
    });
    await r.warmup();
    expect(seen['OPTIONS /']).toEqual(['identity']);
    await drain(r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    await drain(r.tts({ text: 'Hi there.', voice: 'v' }));
    await drain(r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }));
    expect(seen).toEqual({
      'OPTIONS /': ['identity'],
      'POST /v1/chat/completions': ['identity'],
      'POST /v1/messages': ['identity'],
      'POST /v1/audio/speech': ['identity'],
      'POST /tts/bytes': ['identity'],
      'POST /v1/speak': ['identity'],
      'POST /v1/text-to-speech/x/stream': ['identity'],
      'POST /v1/audio/transcriptions': ['identity'],
    });
  });

  it("a provider's own Accept-Encoding header is sent instead, once", async () => {
    const { wire, seen } = await recordingServer();
    const r = router({
      providers: {
        o: {
          kind: 'openai-compatible',
          baseUrl: `${wire.url}/v1`,
          headers: { 'Accept-Encoding': 'gzip;q=0, identity' },
          chat: { models: { m: 'x' } },
        },
        an: {
          kind: 'anthropic',
          baseUrl: wire.url,
          apiKey: KEY,
          headers: { 'ACCEPT-ENCODING': 'br' },
          chat: { models: { m: 'x' } },
        },
      },
      routes: { chat: { providers: ['o', 'an'], strategy: 'priority' } },
    });
    await drain(r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(seen).toEqual({
      'POST /v1/chat/completions': ['gzip;q=0, identity'],
      'POST /v1/messages': ['br'],
    });
  });
});
