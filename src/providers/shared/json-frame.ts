import { ProtocolError } from '../../errors/index.js';
import type { WebSocketMessage } from '../../transport/websocket-types.js';

/**
 * The parsed JSON of one WebSocket frame from a provider that sends JSON text frames only
 * (Cartesia, ElevenLabs). `sender` names the provider's API in messages, e.g. `'Cartesia'`.
 * Throws ProtocolError (retryable, with `provider`) for a binary frame
 * (`<sender> sent a binary frame (N bytes); it sends JSON only`) and for text that is not JSON
 * (`<sender> sent a frame that is not JSON (N characters)`, the parse error as `cause`); the
 * frame's content never appears in the message.
 */
export function jsonFrame(message: WebSocketMessage, provider: string, sender: string): unknown {
  if (message.type !== 'text') {
    throw new ProtocolError(
      `${sender} sent a binary frame (${message.data.byteLength} bytes); it sends JSON only`,
      {
        provider,
      },
    );
  }
  try {
    return JSON.parse(message.data);
  } catch (cause) {
    throw new ProtocolError(`${sender} sent a frame that is not JSON (${message.data.length} characters)`, {
      provider,
      cause,
    });
  }
}
