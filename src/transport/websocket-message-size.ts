import type { Dispatcher } from 'undici';
import { ProtocolError } from '../errors/index.js';

/**
 * Default bound of one message a provider sends on a WebSocket, in bytes: 16 MiB. The largest
 * legitimate provider message is a chunk of base64 audio (Cartesia `chunk`, ElevenLabs `audio`),
 * far below this (a whole minute of 48 kHz 16-bit mono PCM is 7.7 MB in base64); undici's own
 * default (128 MB) would let a faulty server make the process hold that much per socket.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** WebSocket options an undici dispatcher carries (undici reads them at the handshake). */
type WebSocketOptions = { maxFragments?: number; maxPayloadSize?: number };

/**
 * `dispatcher` with undici's `webSocketOptions.maxPayloadSize` at most `max` bytes (its own
 * bound when it is smaller and not 0, i.e. unlimited), every other member its own (methods
 * called on `dispatcher` itself, but `compose` on the view, so that what it composes keeps the
 * bound); `dispatcher` itself when `max` is 0 (no bound).
 */
export function boundedDispatcher(dispatcher: Dispatcher, max: number): Dispatcher {
  if (max <= 0) return dispatcher;
  return new Proxy(dispatcher, {
    get(target, key) {
      if (key !== 'webSocketOptions') {
        const value: unknown = Reflect.get(target, key);
        // Its methods run on the dispatcher itself (a class with private fields, as undici's
        // ProxyAgent and EnvHttpProxyAgent, refuses a Proxy as its receiver), but `compose`
        // on this view: the dispatcher it returns reads `webSocketOptions` from its receiver.
        return typeof value === 'function' && key !== 'compose' ? value.bind(target) : value;
      }
      const options = (target as { webSocketOptions?: WebSocketOptions }).webSocketOptions ?? {};
      const own = options.maxPayloadSize;
      return { ...options, maxPayloadSize: own !== undefined && own > 0 && own < max ? own : max };
    },
  });
}

/**
 * True when a message's data is larger than `max` bytes (0: no bound): UTF-8 bytes of a text
 * frame, length of a binary one.
 */
export function isOversized(data: string | Uint8Array, max: number): boolean {
  if (max <= 0) return false;
  if (typeof data !== 'string') return data.byteLength > max;
  if (data.length > max) return true;
  // Each UTF-16 unit is 1 to 3 UTF-8 bytes: count exactly only where it can matter.
  return data.length * 3 > max && Buffer.byteLength(data, 'utf8') > max;
}

/**
 * The ProtocolError of a message larger than `max` bytes from `provider` (retryable: another
 * provider may do better). The message says nothing of its content.
 */
export function oversizeError(provider: string, max: number): ProtocolError {
  return new ProtocolError(
    `Provider '${provider}' sent a WebSocket message larger than ${max} bytes, the limit for a provider's message`,
    { provider },
  );
}
