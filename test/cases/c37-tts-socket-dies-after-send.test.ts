/**
 * C37: a Cartesia /tts/websocket connection that dies (TCP destroyed, no close frame) right
 * after a generation request was sent, before any audio. The utterance is never silently lost:
 * with a fallback it is heard in full exactly once (from the fallback or a fresh Cartesia
 * socket); alone it is audio on a fresh socket or a typed retryable error, never a clean end
 * in silence and never a hang; the next utterance is spoken on a new socket. The Cartesia
 * server here speaks the wire on its own (ws, JSON text frames, base64 audio).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  AllProvidersFailedError,
  type AudioChunk,
  type Router,
  type RouterConfig,
  VoxrouteError,
} from '../../src/index.js';
import {
  answerPcm,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  wsServer,
} from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

const FIRST = 'Your table is booked.';
const SECOND = 'See you at eight.';
const THIRD = 'Goodbye.';

/** The audio a server speaks for `text`: 0.1 s of PCM s16le 24 kHz, distinct per text and server. */
function speech(text: string, server: number): Buffer {
  return pcmSignal(2400, 24_000, (text.length % 7) + server);
}

/**
 * A Cartesia TTS WebSocket server: answers each generation request with the text's audio in
 * two base64 chunks and `done`; destroys the TCP connection (no close frame) as soon as it
 * receives generation request number `dieAt` (1-based, counted over all connections).
 */
async function cartesiaServer(dieAt: number) {
  let requests = 0;
  const wire = await wsServer((ws: WebSocket, req: IncomingMessage) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as {
        context_id: string;
        transcript?: string;
        cancel?: boolean;
        continue?: boolean;
      };
      if (m.cancel || m.transcript === undefined || m.transcript === '') return;
      requests++;
      if (requests === dieAt) {
        req.socket.destroy();
        return;
      }
      const audio = speech(m.transcript.trim(), 1);
      const half = audio.byteLength / 2;
      for (const part of [audio.subarray(0, half), audio.subarray(half)]) {
        ws.send(
          JSON.stringify({
            type: 'chunk',
            context_id: m.context_id,
            data: part.toString('base64'),
            done: false,
            status_code: 206,
          }),
        );
      }
      ws.send(JSON.stringify({ type: 'done', context_id: m.context_id, done: true, status_code: 200 }));
    });
  });
  return {
    wire,
    get requests() {
      return requests;
    },
  };
}

/** An OpenAI-compatible TTS server speaking `speech(text, 2)`. */
async function fallbackServer() {
  return httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse(String(await readBody(req))) as { input: string };
    answerPcm(res, speech(body.input.trim(), 2));
  });
}

/** The route of Cartesia at `cartesiaUrl` alone, or followed by the backup `b` at `fallbackUrl`. */
const config = (cartesiaUrl: string, fallbackUrl?: string): RouterConfig =>
  ttsRouteWithBackup(
    'cartesia',
    {
      kind: 'cartesia',
      baseUrl: cartesiaUrl,
      apiKey: 'sk_car_case_37',
      tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
    },
    fallbackUrl,
    { firstChunkTimeoutMs: false, idleTimeoutMs: 5000 },
  );

async function speak(r: Router, text: string) {
  const stream = r.tts({ text, voice: 'agent' });
  const { items, error } = await drain<AudioChunk>(stream);
  const result = await stream.result.catch(() => undefined);
  return { audio: concat(items.map((c) => c.data)), error, provider: result?.provider };
}

/** The utterance was heard in full exactly once, from the fallback or from Cartesia. */
function heardOnce(audio: Buffer, text: string): boolean {
  return audio.equals(speech(text, 2)) || audio.equals(speech(text, 1));
}

describe('C37: a TTS WebSocket that dies right after the request is sent never loses the utterance silently', () => {
  it('C37: with a fallback, the utterance that dies on the warm socket is heard in full exactly once; the next is spoken on a new socket', async () => {
    const cartesia = await cartesiaServer(2);
    const b = await fallbackServer();
    const r = router(config(cartesia.wire.url, b.url));

    const one = await speak(r, FIRST);
    expect(one.error).toBeUndefined();
    expect(one.provider).toBe('cartesia');
    expect(one.audio.equals(speech(FIRST, 1))).toBe(true);
    expect(cartesia.wire.connections).toBe(1);

    const two = await speak(r, SECOND);
    expect(two.error).toBeUndefined();
    expect(heardOnce(two.audio, SECOND)).toBe(true);

    const three = await speak(r, THIRD);
    expect(three.error).toBeUndefined();
    expect(three.provider).toBe('cartesia');
    expect(three.audio.equals(speech(THIRD, 1))).toBe(true);
    // The dead socket was never used again: the third utterance went out on a new one.
    expect(cartesia.wire.connections).toBeGreaterThanOrEqual(2);
    expect(cartesia.wire.sockets[0]!.destroyed).toBe(true);
  });

  it('C37: with Cartesia alone, the utterance that dies on the warm socket is audio from a fresh socket or a typed retryable error, never silence', async () => {
    const cartesia = await cartesiaServer(2);
    const r = router(config(cartesia.wire.url));

    const one = await speak(r, FIRST);
    expect(one.error).toBeUndefined();
    expect(one.audio.equals(speech(FIRST, 1))).toBe(true);

    const two = await speak(r, SECOND);
    if (two.error === undefined) {
      // Replayed on a fresh socket: the whole utterance, once.
      expect(two.audio.equals(speech(SECOND, 1))).toBe(true);
      expect(cartesia.wire.connections).toBe(2);
    } else {
      expect(VoxrouteError.isInstance(two.error)).toBe(true);
      expect((two.error as VoxrouteError).retryable).toBe(true);
      expect(two.audio.byteLength).toBe(0);
    }

    const three = await speak(r, THIRD);
    expect(three.error).toBeUndefined();
    expect(three.audio.equals(speech(THIRD, 1))).toBe(true);
    expect(cartesia.wire.connections).toBeGreaterThanOrEqual(2);
  });

  it('C37: with a fallback, the very first (cold) socket dying after the send falls back, heard once; the next utterance uses a new Cartesia socket', async () => {
    const cartesia = await cartesiaServer(1);
    const b = await fallbackServer();
    const r = router(config(cartesia.wire.url, b.url));

    const one = await speak(r, FIRST);
    expect(one.error).toBeUndefined();
    expect(heardOnce(one.audio, FIRST)).toBe(true);

    const two = await speak(r, SECOND);
    expect(two.error).toBeUndefined();
    expect(two.provider).toBe('cartesia');
    expect(two.audio.equals(speech(SECOND, 1))).toBe(true);
    expect(cartesia.wire.connections).toBe(2);
  });

  it('C37: a warm socket that dies before any answer is replayed once on a fresh socket (Cartesia alone): the utterance is heard, no error', async () => {
    const cartesia = await cartesiaServer(2);
    const r = router(config(cartesia.wire.url));
    const errors: string[] = [];
    r.on('error', (e) => errors.push(e.provider));
    expect((await speak(r, FIRST)).audio.equals(speech(FIRST, 1))).toBe(true);
    const two = await speak(r, SECOND);
    expect(two.error).toBeUndefined();
    expect(two.audio.equals(speech(SECOND, 1))).toBe(true);
    expect([cartesia.requests, cartesia.wire.connections]).toEqual([3, 2]);
    expect(errors).toEqual([]);
  });

  it('C37: a cold socket that dies after the send is not replayed on the same provider: alone, a typed retryable error at once', async () => {
    const cartesia = await cartesiaServer(1);
    const r = router(config(cartesia.wire.url));
    const one = await speak(r, FIRST);
    expect(AllProvidersFailedError.isInstance(one.error)).toBe(true);
    expect((one.error as AllProvidersFailedError).retryable).toBe(true);
    expect(one.audio.byteLength).toBe(0);
    expect([cartesia.requests, cartesia.wire.connections]).toEqual([1, 1]);
    const two = await speak(r, SECOND);
    expect(two.error).toBeUndefined();
    expect(two.audio.equals(speech(SECOND, 1))).toBe(true);
    expect(cartesia.wire.connections).toBe(2);
  });

  it('C37: an ElevenLabs stream-input socket destroyed right after the text is sent falls back, heard once; alone it is a typed retryable error', async () => {
    let texts = 0;
    const eleven = await wsServer((ws: WebSocket, req: IncomingMessage) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { text?: string };
        if (m.text === undefined || m.text === ' ' || m.text === '') return;
        texts++;
        req.socket.destroy();
      });
    });
    const b = await fallbackServer();
    const el = {
      kind: 'elevenlabs' as const,
      baseUrl: eleven.url,
      apiKey: 'xi-case-37',
      tts: { voices: { agent: 'el-voice' }, transport: 'websocket' as const },
    };
    const withFallback = router({
      providers: {
        el,
        b: { kind: 'openai-compatible', baseUrl: b.url, tts: { voices: { agent: 'alloy' } } },
      },
      routes: { tts: { providers: ['el', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const one = await speak(withFallback, FIRST);
    expect(one.error).toBeUndefined();
    expect(one.provider).toBe('b');
    expect(one.audio.equals(speech(FIRST, 2))).toBe(true);

    const alone = router({
      providers: { el },
      routes: { tts: { providers: ['el'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const two = await speak(alone, SECOND);
    expect(two.audio.byteLength).toBe(0);
    expect(VoxrouteError.isInstance(two.error)).toBe(true);
    expect((two.error as VoxrouteError).retryable).toBe(true);
    expect(texts).toBe(2);
  });
});
