/**
 * Kind 3, cancellation that does not release: `return()` while a `next()` is pending settles
 * both at once with the provider's socket closed and no item after it; leaving an stt() stream
 * (abort, error, return) returns the caller's audio iterator (its finally runs) and never pulls
 * it again; close() leaves no socket open of voxroute's open. Servers speak the wire on
 * their own (loopback). "At once" is without the provider and without time, within
 * {@link AT_ONCE_TURNS} turns of the event loop (measured: before the first; no I/O is waited
 * for): the routers run on a fake clock that never moves, so a release that waits on the
 * provider, on a deadline or on any timer fails the same way on a fast and on a loaded machine.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createRouter, type RouterConfig } from '../../src/index.js';
import { sageMakerTts } from '../cases/wire/sagemaker-response.js';
import { closed, concat, drain, httpServer, pcmSignal, router } from '../cases/wire/servers.js';
import { deferred } from '../helpers/deferred.js';
import { FakeClock } from '../transport/fake-clock.js';
import { payloadPart } from './wire/event-stream.js';

const AUDIO = pcmSignal(2400, 24_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

function ttsConfig(url: string): RouterConfig {
  return {
    providers: { a: { kind: 'openai-compatible', baseUrl: url, tts: { voices: { agent: 'alloy' } } } },
    routes: {
      tts: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false, idleTimeoutMs: 60_000 },
    },
  } as RouterConfig;
}

function sttConfig(url: string): RouterConfig {
  return {
    providers: {
      a: { kind: 'openai-compatible', baseUrl: url, stt: { model: 'whisper', streaming: false } },
    },
    routes: { stt: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
  } as RouterConfig;
}

/**
 * A caller's microphone: 20 ms chunks, one per turn of the event loop; counts next() calls
 * (those after `state.stopped` was set apart) and resolves `returned` at its return().
 */
function microphone() {
  const state = { pulls: 0, pullsAfter: 0, stopped: false };
  const returned = deferred();
  const audio: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      state.pulls++;
      if (state.stopped) state.pullsAfter++;
      await new Promise((resolve) => setImmediate(resolve));
      return { done: false, value: new Uint8Array(640) };
    },
    async return() {
      returned.resolve();
      return { done: true, value: undefined };
    },
  };
  return { state, audio, returned: returned.promise };
}

/** How many turns of the event loop a release may take (see the header). */
const AT_ONCE_TURNS = 3;

/** `promise`, checked to have settled within {@link AT_ONCE_TURNS} turns of the event loop. */
async function atOnce<T>(promise: Promise<T>, what: string): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  for (let turn = 0; turn < AT_ONCE_TURNS && !settled; turn++) await nextTurn();
  expect(settled, `${what} within ${AT_ONCE_TURNS} turns of the event loop`).toBe(true);
  return watched;
}

/** A router of `config` on a clock that never moves (see the header). */
const stoppedClockRouter = (config: RouterConfig) => router(config, { clock: new FakeClock() });

describe('kind 3: cancellation releases at once', () => {
  it('return() while next() is pending before the first chunk: both settle, socket closed', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.flushHeaders();
      // then never a byte
    });
    const r = stoppedClockRouter(ttsConfig(server.url));
    const it = r.tts({ text: 'Hello there.', voice: 'agent' })[Symbol.asyncIterator]();
    const pending = it.next();
    await server.request(1);
    const [first, ret] = await atOnce(Promise.all([pending, it.return!()]), 'next() and return() settled');
    expect(first).toEqual({ done: true, value: undefined });
    expect(ret).toEqual({ done: true, value: undefined });
    await closed(server.sockets[0]!);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it('return() while next() is pending after output: no item after return(), socket closed', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.write(AUDIO.subarray(0, 960));
      // then stalls mid-stream
    });
    const r = stoppedClockRouter(ttsConfig(server.url));
    const stream = r.tts({ text: 'Hello there.', voice: 'agent' });
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.done).toBe(false);
    const pending = it.next();
    const [second, ret] = await atOnce(Promise.all([pending, it.return!()]), 'next() and return() settled');
    expect(second).toEqual({ done: true, value: undefined });
    expect(ret).toEqual({ done: true, value: undefined });
    await closed(server.sockets[0]!);
    const result = await stream.result;
    expect(result.attempts.map((a) => a.outcome)).toEqual(['aborted']);
  });

  it('stt abort: the caller’s audio iterator is returned at once and never pulled after', async () => {
    const server = await httpServer(() => {
      // never reads, never answers
    });
    const r = stoppedClockRouter(sttConfig(server.url));
    const mic = microphone();
    const abort = new AbortController();
    const stream = r.stt({ audio: mic.audio, format: FORMAT, signal: abort.signal });
    const done = drain(stream);
    while (mic.state.pulls < 5) await new Promise((resolve) => setImmediate(resolve));
    mic.state.stopped = true;
    abort.abort();
    await atOnce(mic.returned, "the caller's audio iterator returned");
    const { error } = await done;
    expect((error as Error).name).toBe('AbortError');
    expect(mic.state.pullsAfter).toBe(0);
  });

  it('stt provider error: the caller’s audio iterator is returned', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
    });
    const r = stoppedClockRouter(sttConfig(server.url));
    const mic = microphone();
    const stream = r.stt({ audio: mic.audio, format: FORMAT });
    const it = stream[Symbol.asyncIterator]();
    const pending = it.next();
    while (mic.state.pulls < 3) await new Promise((resolve) => setImmediate(resolve));
    mic.state.stopped = true;
    const returning = it.return!();
    await atOnce(mic.returned, "the caller's audio iterator returned");
    await returning;
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(mic.state.pullsAfter).toBe(0);
  });
});

describe('kind 3c: close() leaves nothing open', () => {
  it('after SageMaker response streams and HTTP calls, close() leaves no socket open', async () => {
    const sm = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        res.end(Buffer.concat([payloadPart(AUDIO.subarray(0, 2400)), payloadPart(AUDIO.subarray(2400))]));
      });
    });
    const http = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'audio/pcm' }).end(AUDIO));
    });
    const r = createRouter({
      providers: {
        sm: sageMakerTts(sm.url, 'response'),
        h: { kind: 'openai-compatible', baseUrl: http.url, tts: { voices: { agent: 'alloy' } } },
      },
      routes: {
        tts: { providers: ['sm'], strategy: 'priority' },
        other: { capability: 'tts', providers: ['h'], strategy: 'priority' },
      },
    } as RouterConfig);
    for (let i = 0; i < 20; i++) {
      const a = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
      expect(a.error).toBeUndefined();
      expect(concat(a.items.map((c) => c.data)).equals(AUDIO)).toBe(true);
      const b = await drain(r.tts({ text: 'Hello there.', voice: 'agent', route: 'other' }));
      expect(b.error).toBeUndefined();
    }
    await r.close();
    // The servers stay up: a client socket voxroute left open would keep its server socket open too.
    // Every connection voxroute opened is closed from its side: the server's end of each closes.
    const all = [...sm.sockets, ...http.sockets];
    expect(all.length).toBeGreaterThanOrEqual(2);
    const open = () => all.filter((socket) => !socket.destroyed && !socket.closed).length;
    const settled = Promise.all(all.map(closed)).then(() => 'closed');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve('still open'), 2000);
    });
    expect(await Promise.race([settled, late])).toBe('closed');
    clearTimeout(timer);
    expect(open()).toBe(0);
  });
});
