/**
 * What the streaming STT routing tests share: a Deepgram server that speaks the wire itself
 * (a loopback WebSocket) and audio paced on the router's manual clock, as a microphone's is.
 */
import { type WsWire, wsServer } from '../cases/wire/servers.js';
import type { ManualClock } from './helpers.js';

export const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 100 ms of PCM s16le at 16 kHz. */
export const CHUNK = 3_200;

/**
 * A Deepgram server that answers CloseStream with one final covering all the audio it got
 * ('book a table', `start` 0, `duration` the audio's), or, while `failing()` says so, closes
 * with 1011 (a retryable failure) instead.
 */
export function deepgramServer(failing: () => boolean = () => false): Promise<WsWire> {
  return wsServer((ws) => {
    let bytes = 0;
    ws.on('message', (data, binary) => {
      if (binary) {
        bytes += (data as Buffer).byteLength;
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      if (failing()) {
        ws.close(1011, 'internal error');
        return;
      }
      ws.send(
        JSON.stringify({
          type: 'Results',
          start: 0,
          duration: bytes / 32_000,
          is_final: true,
          speech_final: true,
          channel: { alternatives: [{ transcript: 'book a table', confidence: 1 }] },
        }),
      );
      ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r' }));
      ws.close(1000);
    });
  });
}

/** A Deepgram provider's config for the server at `url`. */
export const deepgramProvider = (url: string) =>
  ({ kind: 'deepgram', baseUrl: url, apiKey: ['test', 'key'].join('-'), stt: { model: 'nova-3' } }) as const;

/**
 * `speechMs` of audio paced on `clock` (a chunk every 100 ms), then `lagMs` more before the audio
 * ends (a final sent at the end comes `lagMs` after the last chunk was read).
 */
export async function* speak(
  clock: ManualClock,
  speechMs: number,
  lagMs: number,
): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < speechMs; at += 100) {
    if (at > 0) clock.advance(100);
    yield new Uint8Array(CHUNK);
  }
  clock.advance(lagMs);
}
