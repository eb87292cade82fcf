import type { Clock } from '../../internal/clock.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';

/**
 * Which Cartesia TTS endpoint `synthesize()` uses (PROTOCOLS.md 1.3-1.5):
 * - `'bytes'`: `POST /tts/bytes`, the raw PCM body streamed as it is generated (no timestamps);
 * - `'sse'`: `POST /tts/sse`, base64 audio chunks and word timestamps as server-sent events;
 * - `'websocket'`: `/tts/websocket` on a warm socket: one context per call, streamed text
 *   input (`continue`), word timestamps, `cancel` on abort;
 * - `'auto'`: `'websocket'` when the text arrives as a stream (an async iterable), else `'bytes'`
 *   (one short HTTP exchange on a kept-alive connection is the fastest way to speak a whole string).
 */
export type CartesiaTtsTransport = 'bytes' | 'sse' | 'websocket' | 'auto';

/**
 * Options of the TTS capability of a Cartesia provider.
 * - `model`: `model_id` sent when the request names none (e.g. `'sonic-3'`).
 * - `transport`: see {@link CartesiaTtsTransport}. Default `'auto'`.
 * - `language`: `language` sent when the request gives none (primary subtag, e.g. `'en'`).
 * - `addTimestamps`: ask for word timestamps (`add_timestamps`) on sse and websocket. Default true.
 * - `maxBufferDelayMs`: websocket `max_buffer_delay_ms` (0..5000 ms); omitted: not sent.
 * - `keepWarmMs`: how long an idle TTS socket stays open for the next call, in ms; 0 closes
 *   it after each call. Default 30,000.
 */
export interface CartesiaTtsOptions {
  model: string;
  transport?: CartesiaTtsTransport;
  language?: string;
  addTimestamps?: boolean;
  maxBufferDelayMs?: number;
  keepWarmMs?: number;
}

/**
 * Options of the STT capability (`/stt/websocket`, manual finalize; PROTOCOLS.md 1.6).
 * - `model`: the `model` query parameter when the request names none (e.g. `'ink-whisper'`).
 * - `language`: the `language` query parameter when the request gives none; omitted: not sent
 *   (Cartesia's default is `en`).
 */
export interface CartesiaSttOptions {
  model: string;
  language?: string;
}

/**
 * Options of {@link createCartesiaAdapter}.
 * - `name`: the provider's name in the config (errors carry it).
 * - `baseUrl`: API root, default `https://api.cartesia.ai` (PROTOCOLS.md 1.1); WebSocket URLs are derived from it
 *   (`https:` -> `wss:`, `http:` -> `ws:`). A trailing slash is ignored.
 * - `apiKey`: sent as `Authorization: Bearer <key>` and `X-API-Key: <key>` (PROTOCOLS.md 1.1:
 *   the current SDK sends the first, the older SDK and some docs the second), on HTTP and on the
 *   WebSocket handshake; never in a message or log.
 * - `version`: the `Cartesia-Version` header. Default `2025-11-04` (CARTESIA_DEFAULT_VERSION, the
 *   only value of the OpenAPI spec's enum: PROTOCOLS.md 1.1, COAS).
 * - `headers`: extra headers on every HTTP request and WebSocket handshake (e.g. a proxy's);
 *   they never replace `Authorization`, `X-API-Key` or `Cartesia-Version` (names compared
 *   case-insensitively). Not sent when the transport cannot send handshake headers.
 * - `authInQuery`: put `api_key` and `cartesia_version` in WebSocket URLs instead of handshake
 *   headers, for WebSocket constructors that cannot send headers (browsers, Node's global
 *   WebSocket under msw). Default false (undici's WebSocket sends headers).
 * - `webSocket`: the WebSocket transport used when an attempt carries none
 *   (`AttemptContext.webSocket` wins). Default: one made on first use with
 *   `createWebSocketTransport()` (undici loads then).
 * - `clock`: timers of the per-context deadlines and of `keepWarmMs`. Default: the system clock.
 * - `tts`, `stt`: only the capabilities whose option is present are created.
 */
export interface CartesiaAdapterOptions {
  name: string;
  baseUrl?: string;
  apiKey?: string;
  version?: string;
  headers?: Record<string, string>;
  authInQuery?: boolean;
  webSocket?: WebSocketTransport;
  clock?: Clock;
  tts?: CartesiaTtsOptions;
  stt?: CartesiaSttOptions;
}
