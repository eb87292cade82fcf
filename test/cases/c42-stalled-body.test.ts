/**
 * C42: the deadlines cover the response body, not only the headers. A server that answers 200
 * at once and then stops writing (mid-JSON, right after the headers, or mid-SSE) ends the
 * attempt with a TimeoutError at the idle or first-chunk deadline: the next provider serves,
 * the socket to the stalled one is closed, and a truncated body never becomes output.
 * Servers speak the wire on their own (loopback); the stalls are real (the socket stays open).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  type ChatEvent,
  MidStreamError,
  type RoutedStream,
  type RouterConfig,
  TimeoutError,
} from '../../src/index.js';
import {
  answerChat,
  chatChunk,
  closed,
  drain,
  httpServer,
  pcmSignal,
  pieces,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

const IDLE_MS = 1000;
const FIRST_CHUNK_MS = 2000;
const SPEECH = pcmSignal(3 * 16_000, 16_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

/** What A sends before it goes silent (the socket stays open). */
type Stall = (res: ServerResponse) => void;

const midJson: Stall = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"text":"ask not what yo');
};
const headersOnly: Stall = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
};

/** A server that reads each request's body, then answers with `write` (a stall, or a whole answer). */
async function answering(write: Stall) {
  return httpServer(async (req, res) => {
    await readBody(req);
    write(res);
  });
}

/**
 * Reads the stream `call()` starts to its end or error, timing it from the call: what it
 * yielded, how it ended, and the ms it took.
 */
async function timedDrain<T>(call: () => RoutedStream<T>) {
  const started = performance.now();
  const stream = call();
  const { items, error } = await drain(stream);
  return { stream, items, error, elapsed: performance.now() - started };
}

/**
 * The call ended at a stall deadline: no sooner than the idle deadline, and before `below` ms
 * (a hang runs to the test's timeout; which deadline fired is asserted from the error's phase,
 * so the bound leaves room for a loaded machine: 5.2 to 5.9 s were seen at load average 11).
 */
function expectStallDeadline(elapsed: number, below = FIRST_CHUNK_MS + 6000): void {
  expect(elapsed).toBeGreaterThanOrEqual(IDLE_MS - 50);
  expect(elapsed).toBeLessThan(below);
}

const stt = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl,
  stt: { model: 'whisper', streaming: false },
});

function sttConfig(providers: RouterConfig['providers'], order: string[]): RouterConfig {
  return {
    providers,
    routes: {
      stt: {
        providers: order,
        strategy: 'priority',
        idleTimeoutMs: IDLE_MS,
        firstChunkTimeoutMs: FIRST_CHUNK_MS,
      },
    },
  };
}

function isStallTimeout(error: unknown): boolean {
  return TimeoutError.isInstance(error) && (error.phase === 'idle' || error.phase === 'first-chunk');
}

describe('C42: the timeout covers the body; a stalled body never hangs', () => {
  for (const [name, stall] of [
    ['200 application/json and {"text":"ask not what yo, then silence', midJson],
    ['200 headers and then nothing', headersOnly],
  ] as const) {
    it(`C42: a stalled transcription body (${name}) falls back to B within the deadline and closes A's socket`, async () => {
      const a = await answering(stall);
      const b = await answering((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'ask not what your country can do for you' }));
      });
      const r = router(sttConfig({ a: stt(a.url), b: stt(b.url) }, ['a', 'b']));
      const { stream, items, error, elapsed } = await timedDrain(() =>
        r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }),
      );
      expect(error).toBeUndefined();
      expect(items).toMatchObject([{ type: 'final', text: 'ask not what your country can do for you' }]);
      expect(items).toHaveLength(1);
      expectStallDeadline(elapsed);
      const result = await stream.result;
      expect(result.provider).toBe('b');
      expect(isStallTimeout(result.attempts[0]!.error)).toBe(true);
      await closed(a.sockets[0]!);
      expect(a.sockets[0]!.destroyed).toBe(true);
    });

    it(`C42: a stalled transcription body (${name}) on a route of A alone is a TimeoutError, never a transcript`, async () => {
      const a = await answering(stall);
      const r = router(sttConfig({ a: stt(a.url) }, ['a']));
      const { items, error, elapsed } = await timedDrain(() =>
        r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }),
      );
      expect(items).toEqual([]);
      expect(AllProvidersFailedError.isInstance(error)).toBe(true);
      const attempts = (error as AllProvidersFailedError).attempts;
      expect(attempts).toHaveLength(1);
      expect(isStallTimeout(attempts[0]!.error)).toBe(true);
      expectStallDeadline(elapsed);
      await closed(a.sockets[0]!);
    });
  }

  const chat = (baseUrl: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl,
    chat: { models: { fast: 'm' } },
  });
  const chatConfig = (a: string, b: string): RouterConfig => ({
    providers: { a: chat(a), b: chat(b) },
    routes: {
      chat: {
        providers: ['a', 'b'],
        strategy: 'priority',
        idleTimeoutMs: IDLE_MS,
        firstChunkTimeoutMs: FIRST_CHUNK_MS,
      },
    },
  });

  it('C42: a chat SSE stream that stalls right after its headers falls back to B and closes A', async () => {
    const a = await answering((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    const b = await answering((res) => answerChat(res, 'Table booked.'));
    const r = router(chatConfig(a.url, b.url));
    const { stream, items, error, elapsed } = await timedDrain(() =>
      r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast' }),
    );
    expect(error).toBeUndefined();
    expect(items).toEqual<ChatEvent[]>([
      { type: 'text-delta', text: 'Table booked.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expectStallDeadline(elapsed);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    expect(isStallTimeout(result.attempts[0]!.error)).toBe(true);
    await closed(a.sockets[0]!);
  });

  it('C42: a chat SSE stream that stalls after a delta ends with MidStreamError (idle) holding the text, and closes A', async () => {
    const a = await answering((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sseFrames([chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Table for' })]),
      );
    });
    const b = await answering((res) => answerChat(res, 'Table booked.'));
    const r = router(chatConfig(a.url, b.url));
    const { items, error, elapsed } = await timedDrain(() =>
      r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast' }),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Table for' }]);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const mid = error as MidStreamError;
    expect([mid.partialOutput, mid.partialText, mid.retryable]).toEqual([true, 'Table for', true]);
    expect(TimeoutError.isInstance(mid.cause) && mid.cause.phase).toBe('idle');
    expectStallDeadline(elapsed, IDLE_MS + 7000);
    expect(b.hits).toBe(0);
    await closed(a.sockets[0]!);
  });

  it('C42: a TTS audio body that stalls after half its audio ends with MidStreamError (idle); one that stalls after its headers falls back to B', async () => {
    const audio = pcmSignal(4800, 24_000, 2);
    const half = await answering((res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.write(audio.subarray(0, 4800));
    });
    const silent = await answering((res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.flushHeaders();
    });
    const b = await answering((res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': String(audio.byteLength) });
      res.end(audio);
    });
    const tts = (baseUrl: string) => ({
      kind: 'openai-compatible' as const,
      baseUrl,
      tts: { voices: { agent: 'alloy' } },
    });
    const route = (first: string) => ({
      providers: { [first]: tts(first === 'half' ? half.url : silent.url), b: tts(b.url) },
      routes: {
        tts: {
          providers: [first, 'b'],
          strategy: 'priority' as const,
          idleTimeoutMs: IDLE_MS,
          firstChunkTimeoutMs: FIRST_CHUNK_MS,
        },
      },
    });

    const cut = await drain(router(route('half')).tts({ text: 'Your table is booked.', voice: 'agent' }));
    expect(Buffer.concat(cut.items.map((c) => Buffer.from(c.data))).equals(audio.subarray(0, 4800))).toBe(
      true,
    );
    expect(MidStreamError.isInstance(cut.error)).toBe(true);
    const cause = (cut.error as MidStreamError).cause;
    expect(TimeoutError.isInstance(cause) && cause.phase).toBe('idle');
    await closed(half.sockets[0]!);

    const started = performance.now();
    const stream = router(route('silent')).tts({ text: 'Your table is booked.', voice: 'agent' });
    const served = await drain(stream);
    expect(served.error).toBeUndefined();
    expect(Buffer.concat(served.items.map((c) => Buffer.from(c.data))).equals(audio)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect((await stream.result).provider).toBe('b');
    await closed(silent.sockets[0]!);
  });
});
