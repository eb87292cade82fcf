/**
 * A content-encoded body taken as its content: a server (or a proxy in front of it) that
 * compresses a 200 answer although voxroute never asked for a coding had its gzip bytes played
 * as PCM and the call reported as a success. An encoded body of any coding (gzip, br, deflate,
 * zstd, several) is now a retryable ProtocolError at the headers, so the call falls back to the
 * next provider; an encoded error body is described, not shown as bytes. Servers speak HTTP on
 * their own (node:http on loopback).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProtocolError, ProviderError } from '../../src/index.js';
import { undecodedCoding } from '../../src/transport/content-coding.js';
import { drain, httpServer, pcmSignal, router } from './wire/servers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const PCM = pcmSignal(2400, 24_000);

/** A server that answers every POST with `status`, `headers` and `body`; counts the requests. */
async function encodingServer(status: number, headers: Record<string, string>, body: Buffer) {
  let requests = 0;
  const wire = await httpServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { ...headers, 'content-length': String(body.byteLength) });
      res.end(body);
    });
  });
  return { url: wire.url, requests: () => requests };
}

/** A plain PCM server: the backup. */
async function pcmServer() {
  return encodingServer(200, { 'content-type': 'audio/pcm' }, PCM);
}

describe('undecodedCoding', () => {
  it('names the codings the wire left encoded; identity, none or a decoding wire give undefined', () => {
    expect(undecodedCoding({ 'content-encoding': 'gzip' }, false)).toBe('gzip');
    expect(undecodedCoding({ 'content-encoding': 'GZIP' }, false)).toBe('gzip');
    expect(undecodedCoding({ 'content-encoding': 'deflate, br' }, false)).toBe('deflate, br');
    expect(undecodedCoding({ 'content-encoding': 'identity' }, false)).toBe(undefined);
    expect(undecodedCoding({ 'content-encoding': ' , identity' }, false)).toBe(undefined);
    expect(undecodedCoding({}, false)).toBe(undefined);
    expect(undecodedCoding({ 'content-encoding': 'gzip' }, true)).toBe(undefined);
  });
});

describe('a content-encoded answer is a ProtocolError and a fallback, never audio', () => {
  for (const [kind, path] of [
    ['openai-compatible', '/v1'],
    ['cartesia', ''],
  ] as const)
    for (const coding of ['gzip', 'br', 'x-gzip, identity'])
      it(`${kind}: 200 with Content-Encoding: ${coding}, then the backup's PCM`, async () => {
        const encoded = await encodingServer(
          200,
          {
            'content-type': kind === 'cartesia' ? 'application/octet-stream' : 'audio/pcm',
            'content-encoding': coding,
          },
          gzipSync(PCM),
        );
        const backup = await pcmServer();
        const tts = { voices: { agent: 'v' } };
        const r = router({
          providers: {
            a:
              kind === 'cartesia'
                ? {
                    kind,
                    baseUrl: encoded.url,
                    apiKey: 'test-key-a',
                    tts: { ...tts, transport: 'bytes' as const },
                  }
                : {
                    kind,
                    baseUrl: `${encoded.url}${path}`,
                    apiKey: 'test-key-a',
                    tts: { ...tts, responseFormat: 'pcm' as const },
                  },
            b: {
              kind: 'openai-compatible',
              baseUrl: `${backup.url}/v1`,
              apiKey: 'test-key-b',
              tts: { ...tts, responseFormat: 'pcm' },
            },
          },
          routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
        });
        const fallbacks: Array<{ from: string; error: unknown }> = [];
        r.on('fallback', (e) => fallbacks.push({ from: e.provider, error: e.error }));
        const { items, error } = await drain(
          r.tts({ text: 'Your table is booked.', voice: 'agent', format: PCM24K }),
        );
        expect(error).toBe(undefined);
        expect(Buffer.concat(items.map((c) => c.data)).equals(PCM)).toBe(true);
        expect([encoded.requests(), backup.requests()]).toEqual([1, 1]);
        expect(fallbacks.map((f) => f.from)).toEqual(['a']);
        const cause = fallbacks[0]!.error as ProtocolError;
        expect(cause).toBeInstanceOf(ProtocolError);
        expect(cause.message).toBe(
          `Provider 'a' sent a ${coding.split(',')[0]}-encoded body (Content-Encoding), which voxroute neither asks for nor decodes`,
        );
        await r.close();
      });

  it('an encoded error body (401, gzip) is described in the ProviderError, not shown as bytes', async () => {
    const body = gzipSync(Buffer.from('{"error":{"message":"bad key"}}'));
    const server = await encodingServer(
      401,
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    );
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          apiKey: 'test-key-a',
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'], strategy: 'priority' } },
    });
    const { error } = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }));
    const cause = (
      error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
    ) as ProviderError;
    expect(cause).toBeInstanceOf(ProviderError);
    expect(cause.status).toBe(401);
    expect(cause.message).toBe(
      `Provider 'a' answered HTTP 401: (a gzip-encoded body of ${body.byteLength} bytes, not decoded)`,
    );
    await r.close();
  });
});
