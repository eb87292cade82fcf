import type { WebSocket } from 'ws';

/**
 * Speaks one context on a Cartesia `/tts/websocket` socket, as Cartesia's messages read: a
 * `chunk` of `audio` (base64, `status_code` 206), then `done` (`status_code` 200).
 */
export function sendCartesiaContext(ws: WebSocket, contextId: string | undefined, audio: Buffer): void {
  ws.send(
    JSON.stringify({
      type: 'chunk',
      context_id: contextId,
      data: audio.toString('base64'),
      done: false,
      status_code: 206,
    }),
  );
  ws.send(JSON.stringify({ type: 'done', context_id: contextId, done: true, status_code: 200 }));
}
