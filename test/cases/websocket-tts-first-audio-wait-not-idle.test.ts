/**
 * Kind: for TTS over a WebSocket (Cartesia's /tts/websocket, ElevenLabs' stream-input), the wait
 * for the first audio is the first-chunk deadline's, not the idle one's, as over HTTP: the idle
 * deadline (`idleTimeoutMs`) counts from the first audio. Before, both adapters ran it from the
 * moment the provider owed an answer (the text sent), so a provider whose first audio needs 1 s
 * (a cold start) failed with phase `idle` after 400 ms on a route with `firstChunkTimeoutMs:
 * 3000`, `idleTimeoutMs: 400`. A stall after the first audio still fails as `idle`.
 *
 * The servers speak each wire on their own (ws, JSON text frames, base64 audio) and answer when
 * the test says; the router's clock is a fake one moved by the test.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  AllProvidersFailedError,
  MidStreamError,
  type ProviderConfig,
  type Router,
  TimeoutError,
} from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { fieldsOf } from '../helpers/errors.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { concat, pcmSignal, router, wsServer } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 3);
const FIRST_CHUNK_MS = 3000;
const IDLE_MS = 400;

/** How a server answers the text once it has all of it. */
type Answer = 'on-release' | 'first-chunk-then-stall' | 'never';

/**
 * A server of `kind` for one call of a text given whole: `asked` resolves when the whole text
 * reached it; it then answers as `answer` says (`release()`: AUDIO and the end).
 */
async function server(kind: 'cartesia' | 'elevenlabs', answer: Answer) {
  const asked = deferred();
  const released = deferred();
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const audio = AUDIO.toString('base64');
      if (kind === 'cartesia') {
        if (m.continue !== false) return;
        const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
        asked.resolve();
        if (answer === 'first-chunk-then-stall')
          send({ type: 'chunk', data: audio, done: false, status_code: 206 });
        if (answer !== 'on-release') return;
        void released.promise.then(() => {
          send({ type: 'chunk', data: audio, done: false, status_code: 206 });
          send({ type: 'done', done: true, status_code: 200 });
        });
        return;
      }
      if (m.text !== '') return;
      asked.resolve();
      if (answer === 'first-chunk-then-stall') ws.send(JSON.stringify({ audio }));
      if (answer !== 'on-release') return;
      void released.promise.then(() => {
        ws.send(JSON.stringify({ audio }));
        ws.send(JSON.stringify({ isFinal: true }));
        ws.close(1000);
      });
    });
  });
  const config: ProviderConfig =
    kind === 'cartesia'
      ? {
          kind: 'cartesia',
          baseUrl: wire.url,
          apiKey: 'ck_test_0123456789',
          tts: { voices: { v: 'x' }, transport: 'websocket' },
        }
      : {
          kind: 'elevenlabs',
          baseUrl: wire.url,
          apiKey: 'el_test_0123456789',
          tts: { voices: { v: 'x' }, transport: 'websocket' },
        };
  return { config, asked: asked.promise, release: () => released.resolve() };
}

/** A router over `provider` alone: firstChunkTimeoutMs 3000, idleTimeoutMs 400, on `clock`. */
function routeOf(provider: ProviderConfig, clock: FakeClock): Router {
  return router(
    {
      providers: { p: provider },
      routes: { tts: { providers: ['p'], firstChunkTimeoutMs: FIRST_CHUNK_MS, idleTimeoutMs: IDLE_MS } },
    },
    { clock },
  );
}

/** A tts() call read to its end in the background: `failure` is what it threw, `done` its end. */
function runCall(r: Router) {
  const call = { failure: undefined as unknown, chunks: [] as Uint8Array[], done: Promise.resolve() };
  call.done = (async () => {
    for await (const chunk of r.tts({ text: 'Hello there.', voice: 'v' })) call.chunks.push(chunk.data);
  })().catch((error: unknown) => {
    call.failure = error;
  });
  return call;
}

/** Lets socket reads and timers' consequences run (no time passes on the fake clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('websocket TTS: the wait for the first audio is the first-chunk deadline, not idle', () => {
  for (const kind of ['cartesia', 'elevenlabs'] as const) {
    it(`${kind}: first audio 1000 ms after the text, idle 400, first-chunk 3000 -> answered, exact bytes`, async () => {
      const clock = new FakeClock();
      const s = await server(kind, 'on-release');
      const call = runCall(routeOf(s.config, clock));
      await s.asked;
      await until(() => clock.hasTimerAt(FIRST_CHUNK_MS), 'the first-chunk deadline set');
      clock.advance(1000);
      await settle();
      expect(call.failure).toBeUndefined();
      s.release();
      await call.done;
      expect(call.failure).toBeUndefined();
      expect(concat(call.chunks)).toEqual(AUDIO);
    });

    it(`${kind}: no audio at all -> TimeoutError first-chunk at exactly 3000 ms, not idle`, async () => {
      const clock = new FakeClock();
      const s = await server(kind, 'never');
      const call = runCall(routeOf(s.config, clock));
      await s.asked;
      await until(() => clock.hasTimerAt(FIRST_CHUNK_MS), 'the first-chunk deadline set');
      clock.advance(FIRST_CHUNK_MS - 1);
      await settle();
      expect(call.failure).toBeUndefined();
      clock.advance(1);
      await call.done;
      expect(call.failure).toBeInstanceOf(AllProvidersFailedError);
      const cause = (call.failure as AllProvidersFailedError).attempts[0]!.error;
      expect(fieldsOf(cause, TimeoutError, 'phase', 'timeoutMs')).toEqual({
        phase: 'first-chunk',
        timeoutMs: FIRST_CHUNK_MS,
      });
    });

    it(`${kind}: a stall after the first audio -> TimeoutError idle exactly 400 ms after it`, async () => {
      const clock = new FakeClock();
      const s = await server(kind, 'first-chunk-then-stall');
      const call = runCall(routeOf(s.config, clock));
      await until(() => concat(call.chunks).byteLength === AUDIO.byteLength, 'the first audio');
      await until(() => clock.hasTimerAt(IDLE_MS), 'the idle deadline set');
      clock.advance(IDLE_MS - 1);
      await settle();
      expect(call.failure).toBeUndefined();
      clock.advance(1);
      await call.done;
      expect(concat(call.chunks)).toEqual(AUDIO);
      expect(call.failure).toBeInstanceOf(MidStreamError);
      expect(
        fieldsOf((call.failure as MidStreamError).cause, TimeoutError, 'phase', 'timeoutMs', 'partialOutput'),
      ).toEqual({ phase: 'idle', timeoutMs: IDLE_MS, partialOutput: true });
    });
  }
});
