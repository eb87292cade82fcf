/**
 * Races of the streamed-text replay (C37): an abort while the replay waits for the caller's
 * next piece, and the caller's stream failing during the replay. The caller's iterator is
 * closed exactly once when it did not end or fail on its own, never otherwise; the fresh socket
 * is closed after an abort. The server speaks Cartesia's wire on its own (ws, JSON frames).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { AbortError } from '../../../src/errors/index.js';
import type { CartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { pcmSignal, wsServer } from '../../cases/wire/servers.js';
import { until } from '../../helpers/until.js';
import { collect, collectUntilError, webSocketTtsAt } from './helpers.js';

const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
const PIECES = ['See you ', 'at eight, ', 'and bring '];
const AUDIO = pcmSignal(2400, 24_000, 2);

/**
 * Connection 1: answers its first context (a string), then is destroyed on the second
 * context's first text. Later connections: each flush answered with flush_done, the end with
 * audio and done. Records each connection's transcripts and cancels.
 */
async function server() {
  const log: string[][] = [];
  const closes: number[] = [];
  let wake = () => {};
  const wire = await wsServer((ws: WebSocket, req, n) => {
    log[n - 1] = [];
    wake();
    let contexts = 0;
    const seen = new Set<string>();
    let flushes = 0;
    ws.on('close', () => closes.push(n));
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const id = String(m.context_id);
      if (!seen.has(id)) {
        seen.add(id);
        contexts++;
      }
      if (m.cancel === true) {
        log[n - 1]!.push('<cancel>');
        return;
      }
      if (n === 1 && contexts === 2) return void req.socket.destroy();
      const send = (message: object) => ws.send(JSON.stringify({ context_id: id, ...message }));
      if (m.transcript) log[n - 1]!.push(String(m.transcript));
      if (m.flush === true) {
        log[n - 1]!.push('<flush>');
        send({ type: 'flush_done', flush_done: true, flush_id: ++flushes, done: false, status_code: 206 });
      }
      if (m.continue === false) {
        send({ type: 'chunk', data: AUDIO.toString('base64'), done: false, status_code: 206 });
        send({ type: 'done', done: true, status_code: 200 });
      }
    });
  });
  return {
    wire,
    log,
    closes,
    connected: (n: number) =>
      new Promise<void>((resolve) => {
        if (wire.connections >= n) return resolve();
        wake = () => (wire.connections >= n ? resolve() : undefined);
      }),
  };
}

/** The caller's text: PIECES, then `last()` decides the fourth read; counts reads and returns. */
function callerText(last: () => Promise<IteratorResult<string>>) {
  const seen = { reads: 0, returns: 0 };
  let i = 0;
  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        seen.reads++;
        if (i < PIECES.length) return { value: PIECES[i++]!, done: false };
        return last();
      },
      async return() {
        seen.returns++;
        return { value: undefined, done: true };
      },
    }),
  };
  return { iterable, seen };
}

const adapters: CartesiaAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.close()));
});

const adapterAt = (url: string) => webSocketTtsAt(url, adapters, { addTimestamps: false });

describe('Cartesia streamed-text replay: races', () => {
  it("abort while the replay waits for the caller's next piece: AbortError, the caller closed once, the fresh socket closed", async () => {
    const s = await server();
    const { tts, attempt } = adapterAt(s.wire.url);
    await collect(tts.synthesize({ text: 'Hello.', voice: 'v', format }, attempt()));
    const caller = callerText(() => new Promise(() => {}));
    const controller = new AbortController();
    const run = collectUntilError(
      tts.synthesize({ text: caller.iterable, voice: 'v', format }, attempt(controller.signal)),
    );
    await until(() => (s.log[1] ?? []).includes('<flush>') && s.log[1]!.length === 4, 'the replay sent');
    controller.abort();
    const { error } = await run;
    expect(error).toBeInstanceOf(AbortError);
    await until(() => s.log[1]!.includes('<cancel>') || s.closes.includes(2), 'the cancel or close landed');
    expect(s.log[1]).toEqual(['See you ', 'at eight, ', '<flush>', 'and bring ', '<cancel>']);
    await until(() => s.closes.includes(2), 'the fresh socket closed');
    expect(caller.seen).toEqual({ reads: 4, returns: 1 });
  });

  it("the caller's stream fails during the replay: its error thrown, flushed clauses first, never return()ed", async () => {
    const s = await server();
    const { tts, attempt } = adapterAt(s.wire.url);
    await collect(tts.synthesize({ text: 'Hello.', voice: 'v', format }, attempt()));
    const boom = new Error('LLM stream failed');
    const caller = callerText(async () => {
      await s.connected(2);
      throw boom;
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: caller.iterable, voice: 'v', format }, attempt()),
    );
    expect(error).toBe(boom);
    expect(items.map((c) => [c.data.byteLength, c.clausesDone])).toEqual([[0, 1]]);
    await until(() => s.log[1]!.includes('<cancel>') || s.closes.includes(2), 'the cancel or close landed');
    expect(s.log[1]).toEqual(['See you ', 'at eight, ', '<flush>', 'and bring ', '<cancel>']);
    expect(caller.seen).toEqual({ reads: 4, returns: 0 });
    expect(s.wire.connections).toBe(2);
  });

  it('the consumer leaves after the first item of the replay: the caller closed once', async () => {
    const s = await server();
    const { tts, attempt } = adapterAt(s.wire.url);
    await collect(tts.synthesize({ text: 'Hello.', voice: 'v', format }, attempt()));
    const caller = callerText(() => new Promise(() => {}));
    for await (const item of tts.synthesize({ text: caller.iterable, voice: 'v', format }, attempt())) {
      expect(item.clausesDone).toBe(1);
      break;
    }
    await new Promise((r) => setImmediate(r));
    expect(caller.seen).toEqual({ reads: 4, returns: 1 });
  });
});
