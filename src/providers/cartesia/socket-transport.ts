import type { Clock } from '../../internal/clock.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';
import type { AttemptContext } from '../types.js';

/**
 * Picks the WebSocket transport of an attempt: `attempt.webSocket`, else the adapter's own
 * `fallback`, else one made on first use by `createWebSocketTransport({ clock })`, imported
 * lazily so that loading the adapter does not load undici's WebSocket code.
 */
export function socketTransportPicker(
  fallback: WebSocketTransport | undefined,
  clock: Clock | undefined,
): (attempt: AttemptContext) => Promise<WebSocketTransport> {
  let made: Promise<WebSocketTransport> | undefined;
  return (attempt) => {
    if (attempt.webSocket) return Promise.resolve(attempt.webSocket);
    if (fallback) return Promise.resolve(fallback);
    made ??= import('../../transport/websocket.js').then((m) =>
      m.createWebSocketTransport(clock ? { clock } : {}),
    );
    return made;
  };
}
