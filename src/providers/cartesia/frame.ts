import { ProtocolError } from '../../errors/index.js';
import type { WebSocketMessage } from '../../transport/websocket-types.js';
import { jsonFrame } from '../shared/json-frame.js';

/**
 * One Cartesia WebSocket frame (TTS or STT socket) as a JSON object. Throws ProtocolError
 * (with `provider`) for a binary frame, text that is not JSON (see {@link jsonFrame}) and JSON
 * that is not an object (`Cartesia sent a JSON frame that is not an object`).
 */
export function cartesiaFrame(message: WebSocketMessage, provider: string): Record<string, unknown> {
  const json = jsonFrame(message, provider, 'Cartesia');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ProtocolError('Cartesia sent a JSON frame that is not an object', { provider });
  }
  return json as Record<string, unknown>;
}
