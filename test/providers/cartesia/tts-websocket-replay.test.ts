/**
 * C37 with streamed text: a warm Cartesia /tts/websocket that dies right after the second call's
 * first text message, before any message of that context came back, is replaced by a fresh
 * socket that gets the pieces already read from the caller's stream, then the rest of it: the
 * same provider speaks the whole text once. Once a message of the context came (audio, or a
 * flush_done), the socket's death is not replayed. The server here speaks Cartesia's wire on
 * its own (ws, JSON text frames, base64 audio, flush_done with flush_id, done).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { VoxrouteError } from '../../../src/errors/index.js';
import type { AudioChunk } from '../../../src/index.js';
import type { CartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import {
  answerPcm,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  wsServer,
} from '../../cases/wire/servers.js';
import { ttsRouteWithBackup } from '../../cases/wire/tts-route.js';
import { collect, collectUntilError, webSocketTtsAt } from './helpers.js';

const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
const FIRST = 'Your table is booked.';
const PIECES = ['See you ', 'at eight, ', 'and bring ', 'the tickets', ' with you.'];

/** The audio the server speaks for a context's whole `text`: 0.1 s of PCM s16le 24 kHz, distinct per text. */
const speech = (text: string): Buffer => pcmSignal(2400, 24_000, (text.length % 7) + 1);

/** One generation request as the server received it. */
interface Received {
  transcript: string;
  continue: boolean | undefined;
  flush: boolean | undefined;
}

/** How the server fails the second context (the first call's context is always answered). */
type Fault =
  | 'destroy-on-first-text'
  | 'close-1011-on-first-text'
  | 'audio-then-close'
  | 'flush-done-then-close';

/**
 * The audio of a streamed context whose text was flushed after each of `segments` but the
 * last: each segment's {@link speech}, in order.
 */
const spoken = (...segments: string[]): Buffer => concat(segments.map(speech));

/** The segments of {@link PIECES} between the flushes the router sends (after the clause end 'at eight,'). */
const SEGMENTS = ['See you at eight, ', 'and bring the tickets with you.'];

/**
 * A Cartesia TTS WebSocket server recording each context's requests (by connection, in order).
 * As Cartesia does, each flush is answered with the audio of the text sent since the last one
 * (its {@link speech}, when there is text), then `flush_done` (`flush_id` counting from 1), and
 * the end of input (`continue: false`) with the audio of the rest, in two chunks, then `done`.
 * The second context on connection 1 meets `fault`.
 */
async function cartesiaServer(fault: Fault) {
  const contexts: Array<{ connection: number; id: string; requests: Received[] }> = [];
  const fresh: Array<() => void> = [];
  const wire = await wsServer((ws: WebSocket, req: IncomingMessage, connection: number) => {
    for (const wake of fresh.splice(0)) wake();
    const flushes = new Map<string, number>();
    let failed = false;
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      if (m.cancel === true) return;
      const id = String(m.context_id);
      let context = contexts.find((c) => c.id === id);
      if (!context) {
        context = { connection, id, requests: [] };
        contexts.push(context);
      }
      context.requests.push({
        transcript: String(m.transcript),
        continue: m.continue as boolean | undefined,
        flush: m.flush as boolean | undefined,
      });
      // The faulty context meets its fault once (what follows it in flight is not answered).
      if (failed) return;
      const faulty = connection === 1 && contexts.indexOf(context) === 1;
      const fail = () => {
        failed = true;
      };
      const send = (message: object, then?: () => void) =>
        ws.send(JSON.stringify({ context_id: id, ...message }), then);
      if (faulty && fault === 'destroy-on-first-text') {
        fail();
        return void req.socket.destroy();
      }
      if (faulty && fault === 'close-1011-on-first-text') {
        fail();
        return void ws.close(1011, 'internal error');
      }
      if (faulty && fault === 'audio-then-close') {
        fail();
        const audio = speech('partial').toString('base64');
        return void send({ type: 'chunk', data: audio, done: false, status_code: 206 }, () =>
          ws.close(1011, 'internal error'),
        );
      }
      /** Sends the audio of the text since the last flush, in two chunks (none without text). */
      const speakRest = () => {
        const last = context.requests.slice(0, -1).findLastIndex((r) => r.flush === true);
        const text = context.requests
          .slice(last + 1)
          .map((r) => r.transcript)
          .join('');
        if (text === '') return;
        const audio = speech(text);
        const half = audio.byteLength / 2;
        for (const part of [audio.subarray(0, half), audio.subarray(half)]) {
          send({ type: 'chunk', data: part.toString('base64'), done: false, status_code: 206 });
        }
      };
      if (m.flush === true) {
        const n = (flushes.get(id) ?? 0) + 1;
        flushes.set(id, n);
        const close =
          faulty && fault === 'flush-done-then-close' ? () => ws.close(1011, 'internal error') : undefined;
        if (!close) speakRest();
        send({ type: 'flush_done', flush_done: true, flush_id: n, done: false, status_code: 206 }, close);
        return;
      }
      if (m.continue !== false) return;
      speakRest();
      send({ type: 'done', done: true, status_code: 200 });
    });
  });
  return {
    wire,
    contexts,
    /** Resolves once connection number `n` was accepted. */
    connection(n: number): Promise<void> {
      if (wire.connections >= n) return Promise.resolve();
      return new Promise((resolve) => fresh.push(() => (wire.connections >= n ? resolve() : undefined)));
    },
  };
}

/**
 * The caller's text: `PIECES` three at once, then the rest once `gate` resolved; counts the
 * reads (`next()` calls) and whether the stream was closed (`return()`).
 */
function callerText(gate: Promise<void>) {
  const seen = { reads: 0, returned: false };
  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() {
          seen.reads++;
          if (i === 3) await gate;
          return i < PIECES.length ? { value: PIECES[i++]!, done: false } : { value: undefined, done: true };
        },
        async return() {
          seen.returned = true;
          return { value: undefined, done: true };
        },
      };
    },
  };
  return { iterable, seen };
}

const adapters: CartesiaAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.close()));
});

const adapterAt = (url: string) => webSocketTtsAt(url, adapters);

const transcripts = (requests: readonly Received[]) =>
  requests.filter((r) => r.transcript !== '').map((r) => r.transcript);

describe('Cartesia WebSocket TTS: streamed text on a warm socket that dies before any answer is replayed on a fresh one', () => {
  it.each(['destroy-on-first-text', 'close-1011-on-first-text'] as const)(
    '%s: the fresh context gets every piece once, in order, then the rest of the stream; audio exact',
    async (fault) => {
      const server = await cartesiaServer(fault);
      const { tts, attempt } = adapterAt(server.wire.url);
      const one = await collect(tts.synthesize({ text: FIRST, voice: 'v', format }, attempt()));
      expect(concat(one.map((c) => c.data)).equals(speech(FIRST))).toBe(true);

      // The last two pieces are read only once the fresh socket is open: the read of the fourth
      // is pending while the warm socket dies.
      const caller = callerText(server.connection(2));
      const two = await collect(tts.synthesize({ text: caller.iterable, voice: 'v', format }, attempt()));

      const text = PIECES.join('');
      expect(concat(two.map((c) => c.data)).equals(spoken(...SEGMENTS))).toBe(true);
      expect(server.wire.connections).toBe(2);
      const [, dead, replay] = server.contexts;
      expect(dead!.connection).toBe(1);
      expect(dead!.requests[0]).toEqual({ transcript: 'See you ', continue: true, flush: undefined });
      expect(replay!.connection).toBe(2);
      // Every piece once, in order, a flush after the clause end, then the end of input.
      expect(replay!.requests).toEqual([
        { transcript: 'See you ', continue: true, flush: undefined },
        { transcript: 'at eight, ', continue: true, flush: undefined },
        { transcript: '', continue: true, flush: true },
        { transcript: 'and bring ', continue: true, flush: undefined },
        { transcript: 'the tickets', continue: true, flush: undefined },
        { transcript: ' with you.', continue: true, flush: undefined },
        { transcript: '', continue: true, flush: true },
        { transcript: '', continue: false, flush: undefined },
      ]);
      expect(transcripts(replay!.requests).join('')).toBe(text);
      // The caller's stream was read once: five pieces and its end.
      expect(caller.seen).toEqual({ reads: PIECES.length + 1, returned: false });
      expect(server.contexts).toHaveLength(3);
    },
  );

  it('through the router: the same provider serves the call, the backup is never asked, no error event', async () => {
    const server = await cartesiaServer('destroy-on-first-text');
    const asked: string[] = [];
    let onAsked = () => {};
    const backupAsked = new Promise<void>((resolve) => {
      onAsked = resolve;
    });
    const backup = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
      asked.push(String(await readBody(req)));
      onAsked();
      answerPcm(res, speech('backup'));
    });
    const r = router(
      ttsRouteWithBackup(
        'cartesia',
        {
          kind: 'cartesia',
          baseUrl: server.wire.url,
          apiKey: 'sk_car_replay_router',
          tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
        },
        backup.url,
        { firstChunkTimeoutMs: false, idleTimeoutMs: 5000 },
      ),
    );
    const errors: string[] = [];
    r.on('error', (e) => errors.push(e.provider));
    const first = r.tts({ text: FIRST, voice: 'agent' });
    expect(concat((await drain<AudioChunk>(first)).items.map((c) => c.data)).equals(speech(FIRST))).toBe(
      true,
    );

    // The rest of the text comes once the fresh socket opened (or, should the call fall back, the backup was asked).
    const caller = callerText(Promise.race([server.connection(2), backupAsked]));
    const stream = r.tts({ text: caller.iterable, voice: 'agent' });
    const { items, error } = await drain<AudioChunk>(stream);
    expect(error).toBeUndefined();
    expect((await stream.result).provider).toBe('cartesia');
    const text = PIECES.join('');
    expect(concat(items.map((c) => c.data)).equals(spoken(...SEGMENTS))).toBe(true);
    expect([server.wire.connections, server.contexts.length, asked.length, errors]).toEqual([2, 3, 0, []]);
    const [, dead, replay] = server.contexts;
    // The fresh context got what the dead one got, in order, then the rest: the caller's text exactly.
    const sent = transcripts(replay!.requests);
    expect(sent.slice(0, transcripts(dead!.requests).length)).toEqual(transcripts(dead!.requests));
    expect(sent.join('')).toBe(text);
    expect(replay!.requests.at(-1)).toEqual({ transcript: '', continue: false, flush: undefined });
  });

  it.each(['audio-then-close', 'flush-done-then-close'] as const)(
    '%s: a death after a message of the context is not replayed (no fresh socket, the error thrown)',
    async (fault) => {
      const server = await cartesiaServer(fault);
      const { tts, attempt } = adapterAt(server.wire.url);
      await collect(tts.synthesize({ text: FIRST, voice: 'v', format }, attempt()));
      // The rest of the text would come only on a fresh socket (a wrong replay then ends the call).
      const caller = callerText(server.connection(2));
      const { items, error } = await collectUntilError(
        tts.synthesize({ text: caller.iterable, voice: 'v', format }, attempt()),
      );
      expect(VoxrouteError.isInstance(error)).toBe(true);
      expect(server.wire.connections).toBe(1);
      expect(server.contexts).toHaveLength(2);
      if (fault === 'audio-then-close') {
        expect(concat(items.map((c) => c.data)).equals(speech('partial'))).toBe(true);
        expect((error as VoxrouteError).partialOutput).toBe(true);
      } else {
        // The flush_done of the first clause ('See you at eight, '), sent here with no audio.
        expect(items.map((c) => [c.data.byteLength, c.clausesDone])).toEqual([[0, 1]]);
      }
      expect(caller.seen.returned).toBe(true);
    },
  );
});
