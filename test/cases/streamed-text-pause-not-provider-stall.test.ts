/**
 * A pause in the caller's streamed text (an LLM running a tool call for seconds) is not the
 * provider's silence: while a streamed-text TTS provider has answered every text it was asked
 * to speak (Cartesia: each flush answered by `flush_done`), the idle deadline does not run, and
 * the call neither fails nor charges the provider. While an answer is owed (a flush not yet
 * answered, or the end of input sent) after the provider's first audio, the idle deadline runs
 * as before (the wait for the first audio is the first-chunk deadline's: see
 * websocket-tts-first-audio-wait-not-idle.test.ts). The Cartesia and
 * ElevenLabs servers here speak the wire on their own (ws, JSON text frames, base64 audio); the
 * router's clock is a fake one moved by the test.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  AllProvidersFailedError,
  MidStreamError,
  type Router,
  type RouterConfig,
  TimeoutError,
} from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { fieldsOf } from '../helpers/errors.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { concat, pcmSignal, router, wsServer } from './wire/servers.js';

const FIRST = 'Let me check that for you. ';
const SECOND = 'Your table is booked for eight.';
const IDLE_MS = 1000;

/** The audio a server speaks for its `n`-th text (0-based): 0.1 s of PCM s16le 24 kHz. */
const speech = (n: number): Buffer => pcmSignal(2400, 24_000, n + 1);

/**
 * A Cartesia /tts/websocket server: each non-empty transcript is answered with its audio at
 * once, each flush with `flush_done`, the end of input with `done`; with `silentFlush`, only
 * until the first flush was answered: after it, nothing more comes back.
 */
async function cartesiaServer(silentFlush = false) {
  const texts: string[] = [];
  let flushesAnswered = 0;
  let flushes = 0;
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const context_id = m.context_id;
      const send = (message: object) => ws.send(JSON.stringify({ context_id, ...message }));
      if (m.cancel) return;
      if (typeof m.transcript === 'string' && m.transcript !== '') {
        texts.push(m.transcript);
        if (silentFlush && flushesAnswered > 0) return;
        const data = speech(texts.length - 1).toString('base64');
        send({ type: 'chunk', data, done: false, status_code: 206 });
      }
      if (m.flush === true) flushes++;
      if (m.flush === true && !(silentFlush && flushesAnswered > 0)) {
        flushesAnswered++;
        send({
          type: 'flush_done',
          done: false,
          flush_done: true,
          flush_id: flushesAnswered,
          status_code: 206,
        });
      }
      if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
    });
  });
  return {
    url: wire.url,
    texts,
    get flushesAnswered() {
      return flushesAnswered;
    },
    get flushes() {
      return flushes;
    },
  };
}

/**
 * An ElevenLabs stream-input server: answers each text message carrying `flush: true` with its
 * audio, and `{"text":""}` with the audio of any text not yet spoken, `isFinal`, then a close.
 */
async function elevenLabsServer() {
  const texts: string[] = [];
  let spoken = 0;
  let pending = '';
  const wire = await wsServer((ws: WebSocket) => {
    const speak = () => {
      if (pending.trim() === '') return;
      texts.push(pending);
      pending = '';
      ws.send(JSON.stringify({ audio: speech(spoken++).toString('base64'), isFinal: false }));
    };
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { text: string; flush?: boolean };
      if (m.text === '') {
        speak();
        ws.send(JSON.stringify({ isFinal: true }));
        ws.close(1000);
        return;
      }
      if (m.text.trim() !== '') pending += m.text;
      if (m.flush) speak();
    });
  });
  return {
    url: wire.url,
    texts,
    get spoken() {
      return spoken;
    },
  };
}

/** A router over one provider on a TTS route with an idle deadline of IDLE_MS and none for the first chunk. */
function routerOver(provider: RouterConfig['providers'][string], clock: FakeClock): Router {
  return router(
    {
      providers: { p: provider },
      routes: { tts: { providers: ['p'], firstChunkTimeoutMs: false, idleTimeoutMs: IDLE_MS } },
    },
    { clock },
  );
}

/** A router over the Cartesia server at `url` (WebSocket, no timestamps). */
const cartesiaRouter = (url: string, clock: FakeClock) =>
  routerOver(
    {
      kind: 'cartesia',
      baseUrl: url,
      apiKey: 'k',
      tts: { voices: { agent: 'v' }, transport: 'websocket', addTimestamps: false },
    },
    clock,
  );

/** A tts() call of `text` read to its end in the background: `failure` is what it threw, `done` its end. */
function runCall(r: Router, text: AsyncIterable<string>) {
  const call = { failure: undefined as unknown, chunks: [] as Uint8Array[], done: Promise.resolve() };
  call.done = (async () => {
    for await (const chunk of r.tts({ text, voice: 'agent' })) call.chunks.push(chunk.data);
  })().catch((error: unknown) => {
    call.failure = error;
  });
  return call;
}

/**
 * Asserts that `failure` is the route's failure after one attempt that hit the idle deadline
 * (after audio: `MidStreamError`, the route's midStream being 'error').
 */
function expectIdleTimeout(failure: unknown, afterAudio = false): void {
  expect(failure).toBeInstanceOf(afterAudio ? MidStreamError : AllProvidersFailedError);
  const cause = afterAudio
    ? (failure as MidStreamError).cause
    : (failure as AllProvidersFailedError).attempts[0]!.error;
  expect(fieldsOf(cause, TimeoutError, 'phase', 'timeoutMs', 'provider')).toEqual({
    phase: 'idle',
    timeoutMs: IDLE_MS,
    provider: 'p',
  });
}

/** The caller's text: FIRST, then SECOND once `gate` resolves (the LLM's pause). */
async function* tokens(gate: Promise<void>): AsyncGenerator<string> {
  yield FIRST;
  await gate;
  yield SECOND;
}

/**
 * Speaks FIRST, then, once `answered()` and FIRST's audio (4,800 bytes) is in, lets 6 idle
 * deadlines pass on `clock` before SECOND: the call must not fail during the pause nor after.
 * Returns the whole audio.
 */
async function speakAcrossPause(r: Router, clock: FakeClock, answered: () => boolean): Promise<Uint8Array> {
  const gate = deferred();
  const call = runCall(r, tokens(gate.promise));
  await until(() => answered() && concat(call.chunks).byteLength === 4800, 'the first clause');
  clock.advance(6 * IDLE_MS);
  await new Promise((resolve) => setImmediate(resolve));
  expect(call.failure).toBeUndefined();
  gate.resolve();
  await call.done;
  expect(call.failure).toBeUndefined();
  return concat(call.chunks);
}

describe('a pause in streamed text is not the streamed-text TTS provider stalling', () => {
  it('Cartesia WebSocket: a pause of 6 idle deadlines after an answered flush -> the whole reply, no error charged', async () => {
    const clock = new FakeClock();
    const server = await cartesiaServer();
    const r = cartesiaRouter(server.url, clock);
    const audio = await speakAcrossPause(r, clock, () => server.flushesAnswered === 1);
    expect(server.texts.join('')).toBe(FIRST + SECOND);
    expect(audio).toEqual(concat(server.texts.map((_, n) => speech(n))));
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['p', 0, 'closed']]);
  });

  it('Cartesia WebSocket: after the first audio, a flush never answered -> TimeoutError idle exactly idleMs after it was sent', async () => {
    const clock = new FakeClock();
    const server = await cartesiaServer(true);
    const r = cartesiaRouter(server.url, clock);
    const gate = deferred();
    const never = deferred();
    // The caller's text: FIRST (answered), then SECOND (flushed, never answered); the text
    // stays open, so what is owed is the flush alone, not the end of input.
    async function* streaming(): AsyncGenerator<string> {
      yield FIRST;
      await gate.promise;
      yield SECOND;
      await never.promise;
    }
    const call = runCall(r, streaming());
    await until(
      () => server.flushesAnswered === 1 && concat(call.chunks).byteLength === 4800,
      'the first clause',
    );
    gate.resolve();
    await until(() => server.flushes === 2, 'the flush of the second clause reached the server');
    clock.advance(IDLE_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(call.failure).toBeUndefined();
    clock.advance(1);
    await call.done;
    expectIdleTimeout(call.failure, true);
    expect(concat(call.chunks)).toEqual(speech(0));
    never.resolve();
  });

  it('Cartesia WebSocket: after the first audio, a flush never answered while the caller keeps streaming text every idleMs/4 -> TimeoutError idle exactly idleMs after the flush', async () => {
    const clock = new FakeClock();
    const server = await cartesiaServer(true);
    const r = cartesiaRouter(server.url, clock);
    // The caller's text: FIRST (answered), SECOND (a clause end: flushed, never answered), then
    // one word (no clause end) each time the test releases it, as an LLM streams tokens.
    const words = ['Your ', 'table ', 'is ', 'booked '];
    const second = deferred();
    const gates = words.map(() => deferred());
    async function* streaming(): AsyncGenerator<string> {
      yield FIRST;
      await second.promise;
      yield SECOND;
      for (let i = 0; i < words.length; i++) {
        await gates[i]!.promise;
        yield words[i]!;
      }
    }
    const call = runCall(r, streaming());
    await until(
      () => server.flushesAnswered === 1 && concat(call.chunks).byteLength === 4800,
      'the first clause',
    );
    second.resolve();
    await until(() => server.flushes === 2, 'the flush of the second clause reached the server');
    // Our own text is not the provider's answer: at idleMs/4, 2/4 and 3/4 a word is sent.
    for (let i = 0; i < 3; i++) {
      clock.advance(IDLE_MS / 4);
      gates[i]!.resolve();
      await until(() => server.texts.length === i + 3, `word ${i + 1} reached the server`);
      expect(call.failure).toBeUndefined();
    }
    expect(server.texts).toEqual([FIRST, SECOND, 'Your ', 'table ', 'is ']);
    expect(server.flushes).toBe(2);
    clock.advance(IDLE_MS / 4 - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(call.failure).toBeUndefined();
    clock.advance(1);
    await until(() => call.failure !== undefined, 'the call failed');
    await call.done;
    expectIdleTimeout(call.failure, true);
    gates[3]!.resolve();
  });

  it('ElevenLabs stream-input: the same pause -> the whole reply, no error charged', async () => {
    const clock = new FakeClock();
    const server = await elevenLabsServer();
    const r = routerOver(
      {
        kind: 'elevenlabs',
        baseUrl: server.url.replace(/^ws/, 'http'),
        apiKey: 'k',
        tts: { voices: { agent: 'v' }, transport: 'websocket' },
      },
      clock,
    );
    const audio = await speakAcrossPause(r, clock, () => server.spoken === 1);
    expect(server.texts.map((t) => t.trim())).toEqual([FIRST.trim(), SECOND]);
    expect(audio).toEqual(concat([speech(0), speech(1)]));
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['p', 0, 'closed']]);
  });
});
