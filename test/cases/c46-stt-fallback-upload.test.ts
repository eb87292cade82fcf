/**
 * C46: the fallback STT provider gets the caller's whole audio from its first byte, whatever
 * the failed provider read of it (all of it, part of it, or a live socket's share), and the
 * caller gets exactly one final. Servers speak the wire on their own (loopback): multipart is
 * split and the WAV read here, not by voxroute's code.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { RouterConfig } from '../../src/index.js';
import {
  concat,
  drain,
  httpServer,
  multipart,
  pcmSignal,
  pieces,
  readBody,
  router,
  wavData,
  wsServer,
} from './wire/servers.js';

/** 3 s of 16 kHz PCM s16le, sent in 3200-byte (100 ms) chunks. */
const SPEECH = pcmSignal(3 * 16_000, 16_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const TEXT = 'ask not what your country can do for you';

/** Batch B: records the WAV of each upload and answers with TEXT. */
async function batchB() {
  const uploads: Array<{ sampleRate: number; data: Buffer }> = [];
  const server = await httpServer(async (req, res) => {
    const body = await readBody(req);
    const file = multipart(req.headers['content-type'], body).get('file');
    if (!file) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"no file"}}');
      return;
    }
    uploads.push(wavData(file));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text: TEXT }));
  });
  return { server, uploads };
}

const batch = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  stt: { model: 'whisper', streaming: false },
});

function config(providers: RouterConfig['providers'], order: string[]): RouterConfig {
  return {
    providers,
    routes: {
      stt: { providers: order, strategy: 'priority', midStream: 'replay', firstChunkTimeoutMs: false },
    },
  };
}

/** Runs the call and checks B heard SPEECH from its first byte, and the caller one final. */
async function expectBHeardItAll(
  providers: RouterConfig['providers'],
  b: Awaited<ReturnType<typeof batchB>>,
) {
  const r = router(config(providers, ['a', 'b']));
  const stream = r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT });
  const { items, error } = await drain(stream);
  expect(error).toBeUndefined();
  expect(items).toMatchObject([{ type: 'final', text: TEXT }]);
  expect(items).toHaveLength(1);
  expect(b.uploads).toHaveLength(1);
  expect(b.uploads[0]!.sampleRate).toBe(16_000);
  expect(b.uploads[0]!.data.byteLength).toBe(SPEECH.byteLength);
  expect(b.uploads[0]!.data.equals(SPEECH)).toBe(true);
  const result = await stream.result;
  expect(result.provider).toBe('b');
  expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
}

describe('C46: the fallback STT provider gets the whole upload, never a consumed or partial one', () => {
  it('C46: batch A reads the whole multipart upload and answers 503; batch B gets the identical audio from the first byte', async () => {
    let aHeard: Buffer | undefined;
    const a = await httpServer(async (req, res) => {
      const body = await readBody(req);
      aHeard = wavData(multipart(req.headers['content-type'], body).get('file')!).data;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"overloaded","type":"server_error","param":null,"code":503}}');
    });
    const b = await batchB();
    await expectBHeardItAll({ a: batch(a.url), b: batch(b.server.url) }, b);
    expect(aHeard?.equals(SPEECH)).toBe(true);
  });

  it('C46: Deepgram A takes 40% of the audio and closes 1011 before any transcript; batch B gets all of it (midStream replay)', async () => {
    const received: Buffer[] = [];
    const a = await wsServer((ws: WebSocket) => {
      let bytes = 0;
      ws.on('message', (raw, isBinary) => {
        if (!isBinary || ws.readyState !== ws.OPEN) return;
        const data = raw as Buffer;
        received.push(data);
        bytes += data.byteLength;
        if (bytes >= 0.4 * SPEECH.byteLength) ws.close(1011, 'NET-0000 internal server error');
      });
    });
    const b = await batchB();
    await expectBHeardItAll(
      {
        a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'dg-case-46', stt: { model: 'nova-3' } },
        b: batch(b.server.url),
      },
      b,
    );
    const heard = concat(received);
    expect(heard.byteLength).toBeGreaterThanOrEqual(0.4 * SPEECH.byteLength);
    expect(heard.equals(SPEECH.subarray(0, heard.byteLength))).toBe(true);
  });

  it('C46: batch A resets the connection mid-upload; batch B gets the identical audio from the first byte', async () => {
    let aBytes = 0;
    const a = await httpServer((req) => {
      req.on('data', (chunk: Buffer) => {
        aBytes += chunk.byteLength;
        if (aBytes >= 20_000) req.socket.resetAndDestroy();
      });
    });
    const b = await batchB();
    await expectBHeardItAll({ a: batch(a.url), b: batch(b.server.url) }, b);
    expect(aBytes).toBeGreaterThanOrEqual(20_000);
    expect(aBytes).toBeLessThan(SPEECH.byteLength);
  });
});
