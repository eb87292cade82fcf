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

/**
 * Answers a flush on a Cartesia `/tts/websocket` socket as Cartesia does: the flushed clause's
 * `audio` in a `chunk`, then `flush_done`, both with the context's flush count (`flush_id`, from
 * 1). Returns true when `message` was a flush. A server that leaves a flush unanswered and then
 * sends `done` has cut the context (that clause unspoken), so a server that speaks a whole reply
 * answers every flush.
 */
export function answerCartesiaFlush(
  ws: WebSocket,
  message: { context_id?: string; flush?: boolean },
  flushes: Map<string | undefined, number>,
  audio: Buffer,
): boolean {
  if (message.flush !== true) return false;
  const flushId = (flushes.get(message.context_id) ?? 0) + 1;
  flushes.set(message.context_id, flushId);
  const context = { context_id: message.context_id, done: false, status_code: 206, flush_id: flushId };
  ws.send(JSON.stringify({ type: 'chunk', ...context, data: audio.toString('base64') }));
  ws.send(JSON.stringify({ type: 'flush_done', ...context, flush_done: true }));
  return true;
}
