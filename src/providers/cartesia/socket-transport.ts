import type { Clock } from '../../internal/clock.js';
import { createWebSocketTransport } from '../../transport/websocket.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';
import type { AttemptContext } from '../types.js';

/**
 * Picks the WebSocket transport of an attempt: `attempt.webSocket`, else the adapter's own
 * `fallback`, else one made on first use by `createWebSocketTransport({ clock })` (undici loads
 * then, not with the adapter's code).
 */
export function socketTransportPicker(
  fallback: WebSocketTransport | undefined,
  clock: Clock | undefined,
): (attempt: AttemptContext) => Promise<WebSocketTransport> {
  let made: Promise<WebSocketTransport> | undefined;
  return (attempt) => {
    if (attempt.webSocket) return Promise.resolve(attempt.webSocket);
    if (fallback) return Promise.resolve(fallback);
    made ??= Promise.resolve(createWebSocketTransport(clock ? { clock } : {}));
    return made;
  };
}
