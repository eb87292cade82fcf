import {
  appendQuery,
  parseBaseUrl,
  requireApiKey,
  urlUnder,
  useWebSocketScheme,
} from '../shared/base-url.js';
import type { ElevenLabsVoiceSettings } from './options.js';
import { MAX_SPEED, MIN_SPEED } from './options.js';

/** Where the requests of one ElevenLabs provider go. */
export interface ElevenLabsEndpoint {
  /** Provider name (the key in the config's `providers`). */
  provider: string;
  /** The parsed base URL (http or https), with its query if it has one, without fragment. */
  base: URL;
  /** The API key, sent as `xi-api-key`. */
  apiKey: string;
}

/**
 * Checks `baseUrl` and keeps the key. Throws ConfigError (path `providers.<name>.baseUrl`)
 * when `baseUrl` is not an http(s) URL or holds credentials, and (path
 * `providers.<name>.apiKey`) when `apiKey` is empty.
 */
export function createEndpoint(provider: string, baseUrl: string, apiKey: string): ElevenLabsEndpoint {
  const base = parseBaseUrl(provider, baseUrl);
  requireApiKey(provider, apiKey);
  return { provider, base, apiKey };
}

/**
 * The URL of `/v1/text-to-speech/{voice}/{suffix}` under the base URL with `query` (entries
 * whose value is undefined are left out) after the base URL's own query, if any (kept as
 * written, but for a parameter that `query` sets: see appendQuery). `websocket` swaps the scheme for `ws:`/`wss:`. The
 * voice id is percent-encoded as one path segment.
 */
export function ttsUrl(
  endpoint: ElevenLabsEndpoint,
  voice: string,
  suffix: 'stream' | 'stream-input',
  query: Record<string, string | number | undefined>,
  websocket = false,
): string {
  const url = urlUnder(endpoint.base, `/v1/text-to-speech/${encodeURIComponent(voice)}/${suffix}`);
  const params: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.push([name, String(value)]);
  appendQuery(url, params);
  if (websocket) useWebSocketScheme(url);
  return url.href;
}

/** `voice_settings` on the wire (snake_case), as ELJS `VoiceSettings.Raw` / `RealtimeVoiceSettings.Raw` name them. */
export interface WireVoiceSettings {
  stability?: number;
  similarity_boost?: number;
  style?: number;
  use_speaker_boost?: boolean;
  speed?: number;
}

/**
 * The wire `voice_settings` for the configured settings and a request's `speed`, or undefined
 * when there is nothing to send. `speed` (the request's, else the configured one) is clamped
 * to ElevenLabs' range 0.7..1.2: a faster or slower request gets the nearest rate the API
 * accepts instead of a 422 that no other provider would be tried after.
 */
export function wireVoiceSettings(
  settings: ElevenLabsVoiceSettings | undefined,
  speed: number | undefined,
): WireVoiceSettings | undefined {
  const out: WireVoiceSettings = {};
  if (settings?.stability !== undefined) out.stability = settings.stability;
  if (settings?.similarityBoost !== undefined) out.similarity_boost = settings.similarityBoost;
  if (settings?.style !== undefined) out.style = settings.style;
  if (settings?.useSpeakerBoost !== undefined) out.use_speaker_boost = settings.useSpeakerBoost;
  const rate = speed ?? settings?.speed;
  if (rate !== undefined) out.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, rate));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * ElevenLabs' `language_code` (ISO 639-1) of a BCP 47 tag: its primary subtag, lower case
 * (`'en-US'` -> `'en'`); undefined for none.
 */
export function languageCode(language: string | undefined): string | undefined {
  const code = language?.split(/[-_]/)[0]?.trim().toLowerCase();
  return code ? code : undefined;
}
