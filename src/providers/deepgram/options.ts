import type { Clock } from '../../internal/clock.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';

/**
 * Options of the live STT capability (`wss://{host}/v1/listen`, PROTOCOLS.md 3.2).
 * - `model`: sent as `model` when the request names none, e.g. `'nova-3'`.
 * - `language`: sent as `language` when the request names none (BCP-47, e.g. `'en-US'`).
 * - `endpointingMs`: `endpointing` (ms of silence that sets `speech_final`), or `false` to turn
 *   it off. Omitted: not sent (Deepgram's default, 10 ms).
 * - `utteranceEndMs`: `utterance_end_ms`; it needs interim results, so `interim_results=true` is
 *   then always sent (partials still reach the caller only when it asked for them).
 * - `keepAliveIntervalMs`: after this many ms without a frame to Deepgram, a
 *   `{"type":"KeepAlive"}` text message is sent, and again every interval while the caller's
 *   audio pauses; 0 turns it off. Default {@link DEFAULT_KEEP_ALIVE_MS}.
 * - `smartFormat`: `smart_format=true|false`. Omitted: not sent.
 * - `auth`: where the key goes on the handshake (see {@link DeepgramWebSocketAuth}). Default `'auto'`.
 */
export interface DeepgramSttOptions {
  model: string;
  language?: string;
  endpointingMs?: number | false;
  utteranceEndMs?: number;
  keepAliveIntervalMs?: number;
  smartFormat?: boolean;
  auth?: DeepgramWebSocketAuth;
}

/**
 * How the API key is sent on the `/v1/listen` handshake (PROTOCOLS.md 3.1, DGJS `CustomClient.ts`):
 * - `'header'`: `Authorization: Token <key>`, what Deepgram's server-side SDK sends; needs a
 *   WebSocket that can send handshake headers (voxroute's default undici transport can);
 * - `'subprotocol'`: `Sec-WebSocket-Protocol: token, <key>`, what Deepgram's SDK sends from
 *   browsers, for a standard `WebSocket` (e.g. the global one msw intercepts), which cannot
 *   send headers;
 * - `'auto'`: the header when the transport says it can send headers (`canSendHeaders` is not
 *   `false`), else the subprotocol.
 */
export type DeepgramWebSocketAuth = 'auto' | 'header' | 'subprotocol';

/** Options of the TTS capability (`POST {baseUrl}/v1/speak`); the voice id is Deepgram's model. */
export type DeepgramTtsOptions = Record<string, never>;

/**
 * Options of {@link createDeepgramAdapter}.
 * - `name`: the provider's name in the config (errors and attempts carry it).
 * - `baseUrl`: `https://api.deepgram.com` (default of the config) or a mock's origin, without
 *   `/v1`; the WebSocket URL is derived from it (`https:` -> `wss:`, `http:` -> `ws:`).
 * - `apiKey`: sent as `Authorization: Token <apiKey>` (REST, and the listen handshake unless
 *   `stt.auth` picks the subprotocol).
 * - `stt`, `tts`: only the capabilities whose option is present are created.
 * - `webSocket`: the WebSocket transport to use when the attempt brings none
 *   (`AttemptContext.webSocket`). Default: voxroute's undici transport, created on first use.
 * - `clock`: timers of keep-alive and of the wait for the last results, and the time since the
 *   last audio sent (it tells a `NET-0001` inactivity close from a failure while audio flowed,
 *   see `listenError`). Default: the system clock.
 */
export interface DeepgramAdapterOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  stt?: DeepgramSttOptions;
  tts?: DeepgramTtsOptions;
  webSocket?: WebSocketTransport;
  clock?: Clock;
}

/**
 * Default keep-alive interval, in ms: Deepgram closes a listen socket that got neither audio
 * nor a text message for 10 s (NET-0001) and asks for a KeepAlive every 3-5 s (PROTOCOLS.md
 * 3.2, DGDOC-audio-keep-alive). 2000 ms, below that range on purpose: a KeepAlive is a small
 * text frame with no reply, so sending it more often costs nothing, while a gap as long as a
 * window lets one late timer (a busy event loop, a proxy or self-hosted endpoint with a 3 s
 * window) close the socket. At 2 s the longest gap between frames stays 1 s inside a 3 s
 * window and 8 s inside Deepgram's 10 s.
 */
export const DEFAULT_KEEP_ALIVE_MS = 2_000;

/**
 * How long to wait, after `CloseStream`, for the last results and `Metadata` when the attempt
 * has no idle deadline, in ms.
 */
export const DEFAULT_CLOSE_WAIT_MS = 10_000;
