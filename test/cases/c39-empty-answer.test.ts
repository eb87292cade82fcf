/**
 * C39: an answer with no audio (or no text) for a non-empty request is a failure: with a
 * fallback the caller gets the next provider's answer, alone the call throws a typed error; an
 * empty stream never wins a hedged race. Servers speak the wire on their own (loopback).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  AllProvidersFailedError,
  type ChatEvent,
  ProtocolError,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import {
  answerChat,
  answerPcm,
  chatChunk,
  concat,
  drain,
  httpServer,
  pcmSignal,
  router,
  sseFrames,
  wsServer,
} from './wire/servers.js';

const TEXT = 'Your table for four is booked.';
/** B's audio: 0.2 s of PCM s16le at 24 kHz. */
const B_AUDIO = pcmSignal(4800, 24_000, 2);
const A_AUDIO = pcmSignal(4800, 24_000, 3);

/** An OpenAI-compatible TTS server answering each request with `answer`. */
async function speechServer(answer: (res: ServerResponse, n: number) => void) {
  return httpServer((req, res, n) => {
    req.resume();
    req.on('end', () => answer(res, n));
  });
}

const openaiTts = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  tts: { voices: { agent: 'alloy' } },
});

function ttsConfig(providers: RouterConfig['providers'], order: string[], extra = {}): RouterConfig {
  return {
    providers,
    routes: { tts: { providers: order, strategy: 'priority', firstChunkTimeoutMs: false, ...extra } },
  };
}

const openaiChat = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  chat: { models: { fast: 'm' }, continueFinalMessage: true },
});

/** The `chat` route over `order`, in that order, without a first-chunk deadline. */
function chatRoute(order: string[], extra = {}): RouterConfig['routes'] {
  return { chat: { providers: order, strategy: 'priority', firstChunkTimeoutMs: false, ...extra } };
}

/** A chat server answering every request with the SSE `frames` in one body; null: 'Table booked.' whole. */
function sseServer(frames: readonly unknown[] | null) {
  return httpServer((req, res) => {
    req.resume();
    if (frames === null) return answerChat(res, 'Table booked.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sseFrames(frames));
  });
}

const BOOK = [{ role: 'user' as const, content: 'Book a table.' }];
/** A chat answer that finishes (stop) without a delta. */
const FINISH_ONLY = [chatChunk({ role: 'assistant', content: '' }), chatChunk({}, 'stop'), '[DONE]'];

/** Runs `tts(TEXT)` with [A, B] and with [A] alone, and checks both outcomes. */
async function expectFailureIsSeen(a: RouterConfig['providers'][string], aHits: () => number) {
  const b = await speechServer((res) => answerPcm(res, B_AUDIO));
  const withFallback = router(ttsConfig({ a, b: openaiTts(b.url) }, ['a', 'b']));
  const stream = withFallback.tts({ text: TEXT, voice: 'agent' });
  const { items, error } = await drain(stream);
  expect(error).toBeUndefined();
  expect(concat(items.map((c) => c.data)).equals(B_AUDIO)).toBe(true);
  const result = await stream.result;
  expect(result.provider).toBe('b');
  expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
  expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
  expect(b.hits).toBe(1);

  const alone = router(ttsConfig({ a }, ['a']));
  const single = alone.tts({ text: TEXT, voice: 'agent' });
  const lone = await drain(single);
  expect(lone.items).toEqual([]);
  expect(AllProvidersFailedError.isInstance(lone.error)).toBe(true);
  const failure = (lone.error as AllProvidersFailedError).attempts[0]!.error as VoxrouteError;
  expect(ProtocolError.isInstance(failure)).toBe(true);
  expect(failure.retryable).toBe(true);
  await expect(single.result).rejects.toBe(lone.error);
  expect(aHits()).toBe(2);
}

describe('C39: an empty answer for a non-empty request is a failure, never a silent success', () => {
  it('C39: an empty audio answer for non-empty text is a failure, never a silent success (HTTP 200 audio/pcm, Content-Length: 0)', async () => {
    const a = await speechServer((res) => answerPcm(res, Buffer.alloc(0)));
    await expectFailureIsSeen(openaiTts(a.url), () => a.hits);
  });

  it('C39: an SSE TTS stream with only speech.audio.done is a failure, never a silent success', async () => {
    const a = await speechServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sseFrames([
          { type: 'speech.audio.done', usage: { input_tokens: 7, output_tokens: 0, total_tokens: 7 } },
        ]),
      );
    });
    await expectFailureIsSeen(
      { ...openaiTts(a.url), tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' } },
      () => a.hits,
    );
  });

  it('C39: ElevenLabs stream-input answering {"audio":null,"isFinal":true} then close 1000 is a failure', async () => {
    let texts = 0;
    const a = await wsServer((ws: WebSocket) => {
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { text?: string };
        if (message.text === undefined || message.text === ' ') return;
        texts++;
        if (message.text === '') {
          ws.send(JSON.stringify({ audio: null, isFinal: true }));
          ws.close(1000);
        }
      });
    });
    await expectFailureIsSeen(
      {
        kind: 'elevenlabs',
        baseUrl: a.url,
        apiKey: 'xi-case-39',
        tts: { voices: { agent: 'el-voice' }, transport: 'websocket' },
      },
      () => a.connections,
    );
    expect(texts).toBeGreaterThanOrEqual(2);
  });

  it('C39: Cartesia /tts/websocket answering done with no chunk is a failure', async () => {
    // The socket is kept warm between calls: count generation requests, not connections.
    let requests = 0;
    const counting = await wsServer((ws: WebSocket) => {
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as {
          context_id: string;
          cancel?: boolean;
          continue?: boolean;
        };
        if (message.cancel || message.continue) return;
        requests++;
        ws.send(
          JSON.stringify({ type: 'done', context_id: message.context_id, done: true, status_code: 200 }),
        );
      });
    });
    await expectFailureIsSeen(
      {
        kind: 'cartesia',
        baseUrl: counting.url,
        apiKey: 'sk_car_case_39',
        tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
      },
      () => requests,
    );
  });

  it('C39: an empty stream never wins a hedged race (hedge answers 200 empty at once, first choice speaks at 600 ms)', async () => {
    const slow = await speechServer((res) => {
      setTimeout(() => answerPcm(res, A_AUDIO), 600);
    });
    const empty = await speechServer((res) => answerPcm(res, Buffer.alloc(0)));
    const r = router(
      ttsConfig({ slow: openaiTts(slow.url), empty: openaiTts(empty.url) }, ['slow', 'empty'], {
        hedge: { after: 100, maxShare: 1 },
      }),
    );
    const hedges: string[] = [];
    r.on('hedge', (e) => hedges.push(e.provider));
    const stream = r.tts({ text: TEXT, voice: 'agent' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(A_AUDIO)).toBe(true);
    expect(hedges).toEqual(['empty']);
    expect(empty.hits).toBe(1);
    const result = await stream.result;
    expect(result.provider).toBe('slow');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['slow', 'success'],
      ['empty', 'failed'],
    ]);
  });

  it('C39: a chat SSE stream with no delta and no finish ([DONE] only) falls back, and alone is a typed error', async () => {
    const a = await sseServer(['[DONE]']);
    const b = await sseServer(null);
    const r = router({
      providers: { a: openaiChat(a.url), b: openaiChat(b.url) },
      routes: chatRoute(['a', 'b']),
    });
    const stream = r.chat({ messages: BOOK, model: 'fast' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(
      items
        .filter((e): e is Extract<ChatEvent, { type: 'text-delta' }> => e.type === 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Table booked.');
    expect(items.filter((e) => e.type === 'finish')).toHaveLength(1);
    expect((await stream.result).provider).toBe('b');

    const alone = router({
      providers: { a: openaiChat(a.url) },
      routes: chatRoute(['a']),
    });
    const lone = await drain(alone.chat({ messages: BOOK, model: 'fast' }));
    expect(lone.items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(lone.error)).toBe(true);
    expect(ProtocolError.isInstance((lone.error as AllProvidersFailedError).attempts[0]!.error)).toBe(true);
  });

  it('C39: a chat SSE stream that finishes (stop) with no delta falls back to the next provider', async () => {
    const a = await sseServer(FINISH_ONLY);
    const b = await sseServer(null);
    const r = router({
      providers: { a: openaiChat(a.url), b: openaiChat(b.url) },
      routes: chatRoute(['a', 'b']),
    });
    const stream = r.chat({ messages: BOOK, model: 'fast' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'text-delta', text: 'Table booked.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
  });

  it('C39: after a mid-stream switch (chat midStream continue), a provider with nothing left to add ends the reply cleanly', async () => {
    const a = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sseFrames([chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Table booked.' })]),
      );
      setImmediate(() => req.socket.destroy());
    });
    const b = await sseServer(FINISH_ONLY);
    const r = router({
      providers: { a: openaiChat(a.url), b: openaiChat(b.url) },
      routes: chatRoute(['a', 'b'], { midStream: 'continue' }),
    });
    const stream = r.chat({ messages: BOOK, model: 'fast' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'text-delta', text: 'Table booked.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect((await stream.result).provider).toBe('b');
  });
});
