/**
 * A Deepgram or ElevenLabs `baseUrl` with a query string (a gateway in front of the provider
 * that takes its own key or routing in the query: `?subscription-key=...&region=eu`). The
 * query was dropped without a word, so every request reached the gateway without it (a 401 or
 * the wrong region, with nothing saying why), while the OpenAI, Anthropic and Cartesia kinds
 * kept it. Both kinds now keep it, as written, on every request and WebSocket URL, followed by
 * their own parameters (which replace a parameter of the same name); a credential in it is
 * still redacted from errors. The servers here speak HTTP and WebSocket on their own.
 */
import { describe, expect, it } from 'vitest';
import type { AudioChunk, Router } from '../../src/index.js';
import { drain, httpServer, router, wsServer } from './wire/servers.js';

/** Reads as fake on purpose. */
const GATEWAY_KEY = 'gw-key-NOT-A-REAL-KEY-5f1e';
const QUERY = `subscription-key=${GATEWAY_KEY}&region=eu`;

/** Runs `call`, returns the error it ended with (its whole text) and the URL the server saw. */
async function failure(stream: AsyncIterable<unknown>): Promise<string> {
  const { error } = await drain(stream);
  expect(error).toBeInstanceOf(Error);
  const e = error as Error & { attempts?: Array<{ error?: Error }> };
  return [e.message, e.stack, JSON.stringify(e), ...(e.attempts ?? []).map((a) => a.error?.message)].join(
    '\n',
  );
}

async function* audio(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(3200);
}

function tts(r: Router): AsyncIterable<AudioChunk> {
  return r.tts({ text: 'Hello there.', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24_000 } });
}

describe('a baseUrl query is kept', () => {
  it('Deepgram /v1/speak (HTTP)', async () => {
    const paths: string[] = [];
    const server = await httpServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ err_code: 'INVALID_AUTH', err_msg: `Invalid credentials: ${GATEWAY_KEY}` }));
    });
    const r = router({
      providers: {
        d: {
          kind: 'deepgram',
          baseUrl: `${server.url}?${QUERY}`,
          apiKey: 'dg-NOT-A-REAL-KEY-0000',
          tts: { voices: { v: 'aura-2-thalia-en' } },
        },
      },
      routes: { tts: { providers: ['d'] } },
    });
    const seen = await failure(tts(r));
    expect(paths).toEqual([
      `/v1/speak?${QUERY}&model=aura-2-thalia-en&encoding=linear16&sample_rate=24000&container=none`,
    ]);
    expect(seen).toContain('[redacted]');
    expect(seen).not.toContain(GATEWAY_KEY);
  });

  it('Deepgram /v1/listen (WebSocket), a parameter the adapter sets replaced', async () => {
    const paths: string[] = [];
    const server = await wsServer((ws, req) => {
      paths.push(req.url ?? '');
      ws.close(1008, `bad key ${GATEWAY_KEY}`);
    });
    const r = router({
      providers: {
        d: {
          kind: 'deepgram',
          baseUrl: `${server.url}?${QUERY}&model=nova-2`,
          apiKey: 'dg-NOT-A-REAL-KEY-0000',
          stt: { model: 'nova-3' },
        },
      },
      routes: { stt: { providers: ['d'] } },
    });
    const seen = await failure(
      r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(paths).toHaveLength(1);
    const [path, query] = paths[0]!.split('?') as [string, string];
    expect(path).toBe('/v1/listen');
    expect(query.startsWith(`${QUERY}&model=nova-3&`)).toBe(true);
    expect(query.match(/model=/g)).toEqual(['model=']);
    expect(seen).not.toContain(GATEWAY_KEY);
  });

  it('ElevenLabs HTTP stream', async () => {
    const paths: string[] = [];
    const server = await httpServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { status: 'invalid_api_key', message: `no key ${GATEWAY_KEY}` } }));
    });
    const r = router({
      providers: {
        e: {
          kind: 'elevenlabs',
          baseUrl: `${server.url}?${QUERY}`,
          apiKey: 'xi-NOT-A-REAL-KEY-0000',
          tts: { voices: { v: 'voice-id' }, transport: 'http' },
        },
      },
      routes: { tts: { providers: ['e'] } },
    });
    const seen = await failure(tts(r));
    expect(paths).toEqual([`/v1/text-to-speech/voice-id/stream?${QUERY}&output_format=pcm_24000`]);
    expect(seen).not.toContain(GATEWAY_KEY);
  });

  it('ElevenLabs stream-input (WebSocket)', async () => {
    const paths: string[] = [];
    const server = await wsServer((ws, req) => {
      paths.push(req.url ?? '');
      ws.close(1008, `bad key ${GATEWAY_KEY}`);
    });
    const r = router({
      providers: {
        e: {
          kind: 'elevenlabs',
          baseUrl: `${server.url}?${QUERY}`,
          apiKey: 'xi-NOT-A-REAL-KEY-0000',
          tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
        },
      },
      routes: { tts: { providers: ['e'] } },
    });
    const seen = await failure(tts(r));
    expect(paths.length).toBeGreaterThan(0);
    const [path, query] = paths[0]!.split('?') as [string, string];
    expect(path).toBe('/v1/text-to-speech/voice-id/stream-input');
    expect(query.startsWith(`${QUERY}&`)).toBe(true);
    expect(query).toContain('output_format=pcm_24000');
    expect(seen).not.toContain(GATEWAY_KEY);
  });
});
