/**
 * Every HTTP request voxroute sends asks for an uncompressed body (`accept-encoding: identity`,
 * RFC 9110 12.5.3), since it refuses a compressed one: chat, speech and transcription of an
 * OpenAI-compatible server, Anthropic messages, Cartesia bytes, Deepgram speak, ElevenLabs HTTP,
 * and warmup()'s OPTIONS; SageMaker's response stream (through the AWS SDK, signed) and its
 * bidirectional stream (HTTP/2) too. A provider whose `headers` name `Accept-Encoding` (any
 * case) sends that value instead, once. The servers speak HTTP and HTTP/2 on their own
 * (node:http, node:http2 on loopback) and record each request's raw header lines.
 */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { createServer as createH2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CREDENTIALS, responseStreamTts, ttsRouteOver } from './wire/sagemaker-response.js';
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

  it('header: SageMaker InvokeEndpointWithResponseStream (AWS SDK) sends it, and signs it', async () => {
    const seen: Record<string, string[]> = {};
    const signed: string[] = [];
    const recorder = await httpServer((req, res) => {
      signed.push(String(req.headers.authorization));
      seen[`${req.method} ${req.url!.split('?')[0]}`] = acceptEncodings(req);
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    const r = router(ttsRouteOver({ s: responseStreamTts(recorder.url) }));
    await drain(r.tts({ text: 'Hi there.', voice: 'agent' }));
    expect(seen).toEqual({ 'POST /endpoints/voice/invocations-response-stream': ['identity'] });
    expect(signed[0]).toMatch(/SignedHeaders=[^,]*\baccept-encoding\b/);
  });

  it('header: SageMaker bidirectional stream (HTTP/2) sends it, and signs it', async () => {
    const seen: Array<{ encodings: string[]; authorization: string }> = [];
    const server = createH2Server();
    const sessions = new Set<{ destroy(): void }>();
    server.on('session', (session) => {
      sessions.add(session);
      session.on('error', () => {});
    });
    server.on(
      'stream',
      (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, _flags: number, raw: string[]) => {
        stream.on('error', () => {});
        const encodings: string[] = [];
        for (let i = 0; i < raw.length; i += 2) if (raw[i] === 'accept-encoding') encodings.push(raw[i + 1]!);
        seen.push({ encodings, authorization: String(headers.authorization) });
        stream.respond({ ':status': 500, 'content-type': 'application/json' });
        stream.end('{}');
      },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const r = router({
        providers: {
          s: {
            kind: 'sagemaker',
            region: 'us-east-1',
            endpointName: 'asr',
            endpointUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            credentials: EXAMPLE_CREDENTIALS,
            stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'bidirectional' },
          },
        },
        routes: { stt: { providers: ['s'] } },
      });
      await drain(r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }));
      expect(seen.map((x) => x.encodings)).toEqual([['identity']]);
      expect(seen[0]!.authorization).toMatch(/SignedHeaders=[^,]*\baccept-encoding\b/);
    } finally {
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
