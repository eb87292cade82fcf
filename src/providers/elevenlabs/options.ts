import type { Clock } from '../../internal/clock.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';

/**
 * Voice settings, sent as `voice_settings` with snake_case keys (PROTOCOLS.md 4.2, 4.3).
 * Omitted fields are not sent (the voice's stored settings apply).
 * - `stability`, `similarityBoost`, `style`: 0..1;
 * - `useSpeakerBoost`: boolean;
 * - `speed`: 0.7..1.2 (a request's `speed` replaces it).
 */
export interface ElevenLabsVoiceSettings {
  stability?: number;
  similarityBoost?: number;
  style?: number;
  useSpeakerBoost?: boolean;
  speed?: number;
}

/**
 * Which ElevenLabs endpoint TTS uses:
 * - `'http'`: `POST /v1/text-to-speech/{voice_id}/stream` (streamed text is joined first);
 * - `'websocket'`: the `stream-input` WebSocket, for every request;
 * - `'auto'`: the WebSocket when the request's text is an async iterable (streaming input),
 *   HTTP when it is a string.
 */
export type ElevenLabsTtsTransport = 'http' | 'websocket' | 'auto';

/**
 * Options of the TTS capability.
 * - `model`: `model_id` sent when the request names none (e.g. `'eleven_flash_v2_5'`);
 *   omitted from the request when neither gives one (ElevenLabs' default model applies).
 * - `transport`: see {@link ElevenLabsTtsTransport}. Default `'auto'`.
 * - `optimizeStreamingLatency`: `optimize_streaming_latency` query parameter of the HTTP
 *   stream, 0..4 (deprecated by ElevenLabs; PROTOCOLS.md 4.2). Omitted: not sent.
 * - `voiceSettings`: see {@link ElevenLabsVoiceSettings}.
 * - `chunkLengthSchedule`: WebSocket `generation_config.chunk_length_schedule` (characters,
 *   each 50..500; PROTOCOLS.md 4.3). Omitted: the server's default `[120, 160, 250, 290]`.
 * - `keepAliveIntervalMs`: on the WebSocket, a keep-alive `{"text":" "}` is sent after this
 *   many ms without sending anything, until the end of the text (the server closes a socket
 *   that received no text for 20 s; PROTOCOLS.md 4.3, EL-help). Default 10,000.
 */
export interface ElevenLabsTtsOptions {
  model?: string;
  transport?: ElevenLabsTtsTransport;
  optimizeStreamingLatency?: number;
  voiceSettings?: ElevenLabsVoiceSettings;
  chunkLengthSchedule?: number[];
  keepAliveIntervalMs?: number;
}

/**
 * Options of {@link createElevenLabsAdapter}.
 * - `name`: the provider's name in the config (errors carry it).
 * - `baseUrl`: origin of the API without `/v1`, e.g. `'https://api.elevenlabs.io'` (a path
 *   prefix is kept, a trailing slash ignored). The WebSocket URL swaps `https:` for `wss:`
 *   (`http:` for `ws:`).
 * - `apiKey`: sent as the `xi-api-key` header (PROTOCOLS.md 4.1); on the WebSocket, as the
 *   handshake header, or in the first message when the WebSocket transport cannot send
 *   headers (PROTOCOLS.md 4.3). Never put in a URL or an error message.
 * - `tts`: enables TTS.
 * - `webSocket`: the WebSocket transport used when the attempt carries none. Default: one
 *   made on first use with `createWebSocketTransport()` (undici loads then).
 * - `clock`: time source of the keep-alive timer. Default: the system clock.
 */
export interface ElevenLabsAdapterOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  tts?: ElevenLabsTtsOptions;
  webSocket?: WebSocketTransport;
  clock?: Clock;
}

/** Default {@link ElevenLabsTtsOptions.keepAliveIntervalMs}: 10,000 ms. */
export const DEFAULT_KEEP_ALIVE_MS = 10_000;

/** Fastest speaking rate ElevenLabs accepts in `voice_settings.speed` (ELJS `RealtimeVoiceSettings`). */
export const MAX_SPEED = 1.2;
/** Slowest speaking rate ElevenLabs accepts in `voice_settings.speed`. */
export const MIN_SPEED = 0.7;
