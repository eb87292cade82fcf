/**
 * A JSON answer read whole (a batch transcription, `stt.streaming: false`; the JSON document of
 * an event-stream request answered with one) is bounded like a server-sent event (8 MiB): a 200
 * body that goes on and on (a server stuck writing, bytes flowing so no idle deadline fires) ends
 * the attempt with a ProtocolError once past the bound, and its connection is closed, instead of
 * being read into memory until the process runs out of it. The route falls back. Servers speak
 * the wire on their own (loopback).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProtocolError, type RouterConfig } from '../../src/index.js';
import { batchStt, closed, drain, httpServer, pcmSignal, pieces, readBody, router } from './wire/servers.js';

const MAX = 8_388_608;
const SPEECH = pcmSignal(16_000, 16_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const ENDLESS = Buffer.alloc(65_536, 'a');

/** Writes `start`, then 64 KiB of `a` after another for as long as the connection is open. */
async function endless(res: ServerResponse, contentType: string, start: string): Promise<void> {
  res.writeHead(200, { 'content-type': contentType });
  res.write(start);
  while (!res.destroyed && !res.socket?.destroyed) {
    if (!res.write(ENDLESS)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
}

function sttConfig(aUrl: string, bUrl: string | undefined): RouterConfig {
  const stt = { model: 'whisper-1', streaming: false };
  return {
    providers: {
      a: { kind: 'openai-compatible', baseUrl: aUrl, stt },
      ...(bUrl ? { b: { kind: 'openai-compatible' as const, baseUrl: bUrl, stt } } : {}),
    },
    routes: {
      stt: { providers: bUrl ? ['a', 'b'] : ['a'], strategy: 'priority', firstChunkTimeoutMs: false },
    },
  };
}

function expectTooLarge(error: unknown): void {
  expect(ProtocolError.isInstance(error)).toBe(true);
  const e = error as ProtocolError;
  const match = /^JSON response body larger than 8388608 characters at byte (\d+)$/.exec(e.message);
  expect(match).not.toBeNull();
  expect(Number(match![1])).toBe(e.offset);
  expect(e.offset).toBeGreaterThan(MAX);
  expect([e.retryable, e.partialOutput]).toEqual([true, false]);
}

describe('an endless JSON answer is cut at 8 MiB', () => {
  it('a batch transcription whose JSON never ends fails with a ProtocolError past 8 MiB and falls back', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      await endless(res, 'application/json', '{"text":"');
    });
    const b = await batchStt('ask not what your country can do');
    const stream = router(sttConfig(a.url, b.url)).stt({ audio: pieces(SPEECH, 3200), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'ask not what your country can do']]);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expectTooLarge(result.attempts[0]!.error);
    await closed(a.sockets[0]!);
  });

  it('alone, the call ends with that ProtocolError', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      await endless(res, 'application/json', '{"text":"');
    });
    const { items, error } = await drain(
      router(sttConfig(a.url, undefined)).stt({ audio: pieces(SPEECH, 3200), format: FORMAT }),
    );
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expectTooLarge((error as AllProvidersFailedError).attempts[0]!.error);
    await closed(a.sockets[0]!);
  });

  it('an event-stream request answered with an endless JSON document fails the same way', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      await endless(res, 'application/json', '{"error":{"message":"');
    });
    const config: RouterConfig = {
      providers: { a: { kind: 'openai-compatible', baseUrl: a.url, chat: { models: { fast: 'm' } } } },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    };
    const { items, error } = await drain(
      router(config).chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast' }),
    );
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expectTooLarge((error as AllProvidersFailedError).attempts[0]!.error);
    await closed(a.sockets[0]!);
  });
});
