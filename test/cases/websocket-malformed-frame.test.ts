/**
 * A provider's WebSocket frame that undici refuses itself: a frame that breaks the protocol
 * (undici writes a close 1002) or a text frame that is not UTF-8 (close 1007). undici reports
 * only a close 1006 to the WebSocket's listeners, which read as a lost connection; it is a
 * ProtocolError naming what was wrong (never what was sent), and the router falls back. The
 * server speaks the wire on its own (node:net, its own handshake).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type AudioChunk, ProtocolError } from '../../src/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import { rawWebSocketServer } from './wire/raw-websocket.js';
import { answerPcm, concat, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

/** A frame of reserved opcode 0x3 (RFC 6455 §5.2), FIN set, no payload. */
const RESERVED_OPCODE = Uint8Array.of(0x83, 0x00);
/** A text frame whose payload `C3 28` is not UTF-8 (a lead byte, then no continuation byte). */
const INVALID_UTF8 = Uint8Array.of(0x81, 0x02, 0xc3, 0x28);

const BAD_FRAME =
  "Provider 'p' sent a WebSocket frame that breaks the protocol (close 1002, Protocol Error): Invalid opcode received";
const BAD_TEXT =
  "Provider 'p' sent WebSocket data that is not valid for its type (close 1007, Invalid Payload Data): Received invalid UTF-8 in text frame.";

/** Connects to `url`, sends one message and reads; the error the messages end with. */
async function errorAfterOneMessage(url: string): Promise<unknown> {
  const transport = createWebSocketTransport();
  try {
    const conn = await transport.connect({ provider: 'p', url });
    conn.send('{"hello":1}');
    for await (const _ of conn.messages()) return undefined;
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await transport.close?.();
  }
}

describe('a WebSocket frame undici refuses itself', () => {
  it.each([
    ['a reserved opcode', 1002, RESERVED_OPCODE, BAD_FRAME],
    ['a text frame that is not UTF-8', 1007, INVALID_UTF8, BAD_TEXT],
  ] as const)(
    '%s: the client closes with %i, and it is a retryable ProtocolError naming it',
    async (_, code, frame, message) => {
      const server = await rawWebSocketServer(frame);
      const error = await errorAfterOneMessage(server.url);
      expect(error).toBeInstanceOf(ProtocolError);
      expect([(error as ProtocolError).message, (error as ProtocolError).retryable]).toEqual([message, true]);
      expect((error as ProtocolError).message).not.toContain('\u00c3');
      await expect.poll(() => server.closeCodes).toEqual([code]);
    },
  );

  it.each([
    ['a reserved opcode', RESERVED_OPCODE, BAD_FRAME],
    ['a text frame that is not UTF-8', INVALID_UTF8, BAD_TEXT],
  ] as const)(
    'Cartesia TTS over WebSocket sends %s: the router falls back to the backup, which is heard',
    async (_, frame, message) => {
      const cartesia = await rawWebSocketServer(frame);
      const backupAudio = pcmSignal(2400, 24_000, 5);
      const backup = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
        await readBody(req);
        answerPcm(res, backupAudio);
      });
      const r = router(
        ttsRouteWithBackup(
          'cartesia',
          {
            kind: 'cartesia',
            baseUrl: cartesia.url.replace(/^ws/, 'http'),
            apiKey: 'sk_car_malformed',
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
      const result = await stream.result;
      expect(result.provider).toBe('b');
      expect(concat(items.map((c) => c.data)).equals(backupAudio)).toBe(true);
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]).toBeInstanceOf(ProtocolError);
      expect((fallbacks[0] as ProtocolError).message).toBe(message.replace("'p'", "'cartesia'"));
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['cartesia', 'failed'],
        ['b', 'success'],
      ]);
    },
  );
});
