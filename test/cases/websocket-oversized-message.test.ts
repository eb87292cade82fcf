/**
 * A provider's WebSocket message larger than the bound of provider sockets (16 MiB): undici
 * would otherwise accept up to 128 MB per message. The server here speaks the wire on its own
 * (ws). The oversized message ends the attempt with a ProtocolError and the router falls back;
 * a message of exactly the bound is still delivered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { type AudioChunk, ProtocolError } from '../../src/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import { MAX_MESSAGE_BYTES } from '../../src/transport/websocket-message-size.js';
import type { WebSocketTransportOptions } from '../../src/transport/websocket-types.js';
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

const TOO_BIG =
  "Provider 'p' sent a WebSocket message larger than 16777216 bytes, the limit for a provider's message";

/** A server that sends `message` once a connection opens, and records the close code it sees. */
async function sender(message: string | Buffer) {
  const seen: number[] = [];
  const wire = await wsServer((ws) => {
    ws.on('close', (code) => seen.push(code));
    ws.send(message);
  });
  return { url: wire.url.replace(/^http/, 'ws'), seen };
}

async function firstMessage(url: string, options: WebSocketTransportOptions = {}) {
  const transport = createWebSocketTransport(options);
  try {
    const conn = await transport.connect({ provider: 'p', url });
    for await (const message of conn.messages()) {
      conn.close();
      return { message };
    }
    return {};
  } catch (error) {
    return { error };
  } finally {
    await transport.close?.();
  }
}

describe('a WebSocket message larger than the bound of provider sockets', () => {
  it('is 16 MiB by default', () => {
    expect(MAX_MESSAGE_BYTES).toBe(16 * 1024 * 1024);
  });

  it('undici: a text message one byte over is a ProtocolError, and the client closed with 1009', async () => {
    const server = await sender('x'.repeat(MAX_MESSAGE_BYTES + 1));
    const { error, message } = await firstMessage(server.url);
    expect(message).toBeUndefined();
    expect(error).toBeInstanceOf(ProtocolError);
    expect([(error as ProtocolError).message, (error as ProtocolError).retryable]).toEqual([TOO_BIG, true]);
    await expect.poll(() => server.seen).toEqual([1009]);
  });

  it("undici with the caller's dispatcher (128 MB of its own): the same bound", async () => {
    const server = await sender(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
    const dispatcher = new Agent();
    const { error } = await firstMessage(server.url, { dispatcher });
    await dispatcher.close();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toBe(TOO_BIG);
    await expect.poll(() => server.seen).toEqual([1009]);
  });

  it("undici with the caller's EnvHttpProxyAgent (a class with private fields): messages flow, the bound holds", async () => {
    const small = await sender('hello');
    const big = await sender(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
    const dispatcher = new EnvHttpProxyAgent({ noProxy: '*' });
    const delivered = await firstMessage(small.url, { dispatcher });
    const refused = await firstMessage(big.url, { dispatcher });
    await dispatcher.close();
    expect(delivered).toEqual({ message: { type: 'text', data: 'hello' } });
    expect(refused.error).toBeInstanceOf(ProtocolError);
    expect((refused.error as ProtocolError).message).toBe(TOO_BIG);
    // undici failed the connection at the frame's header (1009), as with its own Agent.
    await expect.poll(() => big.seen).toEqual([1009]);
  });

  it('undici: a binary message of exactly the bound is delivered whole', async () => {
    const server = await sender(Buffer.alloc(MAX_MESSAGE_BYTES, 7));
    const { error, message } = await firstMessage(server.url);
    expect(error).toBeUndefined();
    expect(message?.type).toBe('binary');
    expect(message?.type === 'binary' ? message.data.byteLength : 0).toBe(MAX_MESSAGE_BYTES);
  });

  it('a standard constructor (the ws package: 100 MiB of its own) refuses it once received, counting UTF-8 bytes', async () => {
    // 'é' is 2 bytes in UTF-8: half the bound in characters, one byte over in bytes.
    const server = await sender(`${'é'.repeat(MAX_MESSAGE_BYTES / 2)}x`);
    const { error } = await firstMessage(server.url, { WebSocket: WsWebSocket as never });
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toBe(TOO_BIG);
  });

  it('a Cartesia TTS socket that sends an oversized chunk falls back to the backup, which is heard', async () => {
    const backupAudio = pcmSignal(2400, 24_000, 3);
    const cartesia = await wsServer((ws) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { context_id: string; transcript?: string };
        if (!m.transcript) return;
        const data = Buffer.alloc((MAX_MESSAGE_BYTES / 4) * 3).toString('base64'); // 16 MiB of base64
        ws.send(
          JSON.stringify({ type: 'chunk', context_id: m.context_id, data, done: false, status_code: 206 }),
        );
      });
    });
    const backup = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
      await readBody(req);
      answerPcm(res, backupAudio);
    });
    const r = router(
      ttsRouteWithBackup(
        'cartesia',
        {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: 'sk_car_oversized',
          tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
        },
        backup.url,
      ),
    );
    const fallbacks: unknown[] = [];
    r.on('fallback', (e) => fallbacks.push(e.error));
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent' });
    const { items, error } = await drain<AudioChunk>(stream);
    expect(error).toBeUndefined();
    expect((await stream.result).provider).toBe('b');
    expect(concat(items.map((c) => c.data)).equals(backupAudio)).toBe(true);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toBeInstanceOf(ProtocolError);
    expect((fallbacks[0] as ProtocolError).message).toBe(TOO_BIG.replace("'p'", "'cartesia'"));
  });
});
