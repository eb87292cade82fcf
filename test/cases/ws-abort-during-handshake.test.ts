/**
 * A call aborted while its WebSocket handshake is pending (the server accepted TCP and read the
 * upgrade request, but never answers it): the client drops the connection at once, for every
 * WebSocket adapter. The server is node:net, which reads the HTTP upgrade request and never
 * writes a byte; it does not allow half-open sockets, so the client's FIN closes its socket too,
 * and the test waits on that 'close' (a leaked connection would hold the test to its timeout).
 *
 * Note (adversarial round 12, defect 6): the tester's server was a node:http server, whose
 * 'upgrade' sockets allow half-open connections: the client's FIN ('end') left the server's side
 * open until the server wrote. The client's socket is destroyed at the abort in both cases; the
 * 'end' seen here is that FIN.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AbortError, type ProviderConfig } from '../../src/index.js';
import { drain, router } from './wire/servers.js';

/** A TCP server that reads HTTP requests and never answers them; `requests` resolves per request. */
async function stallingServer() {
  const sockets: Socket[] = [];
  const requested: Array<(socket: Socket) => void> = [];
  const waiting: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let head = '';
    socket.on('data', (data) => {
      if (head.includes('\r\n\r\n')) return;
      head += String(data);
      if (!head.includes('\r\n\r\n')) return;
      const next = requested.shift();
      if (next) next(socket);
      else waiting.push(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sockets,
    /** The socket of the next complete upgrade request. */
    request(): Promise<Socket> {
      const ready = waiting.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => requested.push(resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

async function* audio(): AsyncGenerator<Uint8Array> {
  // Enough to start the call; the handshake never completes, so the rest is never read.
  yield new Uint8Array(3200);
  await new Promise<never>(() => {});
}

type Case = { name: string; capability: 'stt' | 'tts'; provider: (baseUrl: string) => ProviderConfig };
const CASES: Case[] = [
  {
    name: 'Deepgram listen',
    capability: 'stt',
    provider: (baseUrl) => ({ kind: 'deepgram', baseUrl, apiKey: 'dg_key', stt: { model: 'nova-3' } }),
  },
  {
    name: 'Cartesia STT',
    capability: 'stt',
    provider: (baseUrl) => ({ kind: 'cartesia', baseUrl, apiKey: 'sk_car_k', stt: { model: 'ink-whisper' } }),
  },
  {
    name: 'Cartesia TTS (WebSocket)',
    capability: 'tts',
    provider: (baseUrl) => ({
      kind: 'cartesia',
      baseUrl,
      apiKey: 'sk_car_k',
      tts: { voices: { agent: 'v1' }, transport: 'websocket' },
    }),
  },
  {
    name: 'ElevenLabs stream-input',
    capability: 'tts',
    provider: (baseUrl) => ({
      kind: 'elevenlabs',
      baseUrl,
      apiKey: 'xi_k',
      tts: { voices: { agent: 'v1' }, transport: 'websocket' },
    }),
  },
];

function call(
  r: ReturnType<typeof router>,
  capability: 'stt' | 'tts',
  signal?: AbortSignal,
): AsyncIterable<unknown> {
  return capability === 'stt'
    ? r.stt({
        audio: audio(),
        format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
        ...(signal ? { signal } : {}),
      })
    : r.tts({ text: 'Hello there.', voice: 'agent', ...(signal ? { signal } : {}) });
}

describe('abort during a pending WebSocket handshake drops the connection at once', () => {
  for (const c of CASES) {
    for (const how of ['signal', 'router.close()'] as const) {
      it(`${c.name}: ${how} while the server has not answered the upgrade`, async () => {
        const server = await stallingServer();
        try {
          const r = router({
            providers: { a: c.provider(server.baseUrl) },
            routes: { [c.capability]: { providers: ['a'], connectTimeoutMs: 60_000 } },
          });
          const controller = new AbortController();
          const outcome = drain(call(r, c.capability, controller.signal)).then(({ error }) => error);
          const socket = await server.request();
          const ended = once(socket, 'end');
          const gone = once(socket, 'close');
          if (how === 'signal') controller.abort('barge-in');
          else await r.close();
          const error = await outcome;
          expect(error).toBeInstanceOf(AbortError);
          if (how === 'signal') expect((error as AbortError).cause).toBe('barge-in');
          // The client's FIN, then the server's socket closes: nothing waits for an answer.
          await ended;
          await gone;
          expect(server.sockets.map((s) => s.closed)).toEqual([true]);
        } finally {
          await server.close();
        }
      }, 30_000);
    }
  }
});
