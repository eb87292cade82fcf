import { systemClock } from '../../internal/clock.js';
import { createWebSocketTransport } from '../../transport/websocket.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';
import type { ProviderAdapter } from '../types.js';
import { createDeepgramEndpoint } from './endpoint.js';
import { createDeepgramListen } from './listen.js';
import type { DeepgramAdapterOptions } from './options.js';
import { createDeepgramSpeak } from './speak.js';

/**
 * The adapter of one Deepgram provider (PROTOCOLS.md section 3): `stt` (live transcription over
 * the `/v1/listen` WebSocket, see `createDeepgramListen`) and `tts` (`POST /v1/speak`, see
 * `createDeepgramSpeak`) exist only when their option is present. REST goes through
 * `attempt.transport`; the socket through `attempt.webSocket`, else `options.webSocket`, else
 * voxroute's undici WebSocket transport, made on first use (undici loads then). The adapter
 * never retries, falls back, converts audio or keeps scores.
 * Throws ConfigError when `baseUrl` is not an http(s) URL, holds credentials, or `apiKey` is empty.
 */
export function createDeepgramAdapter(options: DeepgramAdapterOptions): ProviderAdapter {
  const endpoint = createDeepgramEndpoint(options.name, options.baseUrl, options.apiKey);
  let webSocket: Promise<WebSocketTransport> | undefined = options.webSocket
    ? Promise.resolve(options.webSocket)
    : undefined;
  const defaultWebSocket = () => {
    webSocket ??= Promise.resolve(createWebSocketTransport());
    return webSocket;
  };
  return {
    name: options.name,
    ...(options.stt
      ? {
          stt: createDeepgramListen(endpoint, options.stt, {
            webSocket: defaultWebSocket,
            clock: options.clock ?? systemClock,
          }),
        }
      : {}),
    ...(options.tts ? { tts: createDeepgramSpeak(endpoint) } : {}),
  };
}
