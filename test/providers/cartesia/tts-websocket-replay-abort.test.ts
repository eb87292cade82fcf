/**
 * C37 and the caller's abort: when the caller aborts at the very moment the adapter finds its
 * warm /tts/websocket dead (the socket's error is already in, the replay not yet started), the
 * abort wins: the call throws AbortError with the signal's reason as its cause, not the dead
 * socket's ProviderError, and no fresh socket is opened. The server speaks Cartesia's wire on
 * its own (ws, JSON text frames); the abort is timed on the adapter's own step (it stops
 * listening for the abort of the dead socket's context), not on a sleep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { AbortError } from '../../../src/errors/index.js';
import type { CartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { pcmSignal, wsServer } from '../../cases/wire/servers.js';
import { collect, collectUntilError, textPieces, webSocketTtsAt } from './helpers.js';

const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };
const AUDIO = pcmSignal(2400, 24_000, 3);

/**
 * Connection 1 answers its first context (audio, done), then is destroyed on the second
 * context's first message (before any answer: a dead warm socket). `destroyed` is set then.
 * Any later connection answers every context the same way.
 */
async function server() {
  const state = { destroyed: false };
  const wire = await wsServer((ws: WebSocket, req, n) => {
    const seen = new Set<string>();
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const id = String(m.context_id);
      seen.add(id);
      if (m.cancel === true) return;
      if (n === 1 && seen.size === 2) {
        state.destroyed = true;
        req.socket.destroy();
        return;
      }
      if (m.continue === false) {
        ws.send(
          JSON.stringify({ context_id: id, type: 'chunk', data: AUDIO.toString('base64'), done: false }),
        );
        ws.send(JSON.stringify({ context_id: id, type: 'done', done: true }));
      }
    });
  });
  return { wire, state };
}

/**
 * An AbortController whose signal aborts (with `reason`) right after the adapter removes an
 * `abort` listener once `armed()` is true: the moment the dead socket's context ends and the
 * adapter decides what to do next.
 */
function abortWhenListenerRemoved(armed: () => boolean, reason: unknown): AbortSignal {
  const controller = new AbortController();
  const signal = controller.signal;
  const remove = signal.removeEventListener.bind(signal);
  signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
    remove(...args);
    if (args[0] === 'abort' && armed() && !signal.aborted) controller.abort(reason);
  }) as AbortSignal['removeEventListener'];
  return signal;
}

const adapters: CartesiaAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.close()));
});

describe('Cartesia WebSocket replay: an abort when the dead warm socket is found', () => {
  it.each([
    ['a string', (): string | AsyncIterable<string> => 'See you at eight.'],
    [
      'streamed text',
      (): string | AsyncIterable<string> =>
        textPieces(['See you ', 'at eight, ', 'and bring ', 'the tickets.']),
    ],
  ] as const)(
    '%s: AbortError with the reason, not the socket error, and no fresh socket',
    async (_, text) => {
      const s = await server();
      const { tts, attempt } = webSocketTtsAt(s.wire.url, adapters, { addTimestamps: false });
      await collect(tts.synthesize({ text: 'Hello.', voice: 'v', format }, attempt()));
      expect(s.wire.connections).toBe(1);

      const reason = new Error('caller hung up');
      const signal = abortWhenListenerRemoved(() => s.state.destroyed, reason);
      const { items, error } = await collectUntilError(
        tts.synthesize({ text: text(), voice: 'v', format }, attempt(signal)),
      );
      expect(s.state.destroyed).toBe(true);
      expect(signal.aborted).toBe(true);
      expect(items).toEqual([]);
      expect(error).toBeInstanceOf(AbortError);
      expect((error as AbortError).message).toBe('Cartesia TTS aborted');
      expect((error as AbortError).cause).toBe(reason);
      // The replay never started: the text went to no other socket.
      expect(s.wire.connections).toBe(1);
    },
  );
});
