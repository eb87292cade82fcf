import { systemClock } from '../../internal/clock.js';
import { createWebSocketTransport } from '../../transport/websocket.js';
import type { WebSocketTransport } from '../../transport/websocket-types.js';
import { joinStreamedText } from '../shared/text-piece.js';
import type { AttemptContext, ProviderAdapter, TtsCapabilities } from '../types.js';
import { createEndpoint, type ElevenLabsEndpoint } from './endpoint.js';
import { elevenLabsOutputFormats } from './formats.js';
import { httpStream } from './http-stream.js';
import type { ElevenLabsAdapterOptions, ElevenLabsTtsOptions } from './options.js';
import { streamInput } from './stream-input.js';
import type { ElevenLabsAudio, ElevenLabsTtsProvider, ElevenLabsTtsRequest } from './types.js';

/** The adapter of one ElevenLabs provider: {@link createElevenLabsAdapter}. */
export interface ElevenLabsAdapter extends ProviderAdapter {
  readonly tts?: ElevenLabsTtsProvider;
}

/**
 * The adapter of one ElevenLabs provider (PROTOCOLS.md section 4); `tts` exists when
 * `options.tts` is given. TTS capabilities:
 * - `outputFormats`: PCM s16le at 24000, 16000, 22050, 44100, 48000, 32000 and 8000 Hz, then
 *   mu-law and A-law at 8000 Hz (`pcm_<rate>`, `ulaw_8000`, `alaw_8000`), so the router asks
 *   for the caller's own format whenever ElevenLabs has it;
 * - `streamingText`: true unless `tts.transport` is `'http'`;
 * - `wordTimestamps`: true when `tts.transport` is `'websocket'` (with `'auto'`, only
 *   streamed text goes over the WebSocket and carries `words`).
 * `synthesize()` takes `text` as a string or an async iterable of pieces; it uses the
 * stream-input WebSocket for `'websocket'`, and for `'auto'` when the text is an iterable;
 * else the HTTP stream (an iterable is joined first). See `httpStream` and `streamInput` for
 * the wire and the errors. The WebSocket transport is `attempt.webSocket`, else
 * `options.webSocket`, else one made on first use with `createWebSocketTransport()` (undici
 * loads then). Never retries, falls back or converts audio. Throws ConfigError when `baseUrl` is
 * not an http(s) URL, holds credentials, or `apiKey` is empty.
 *
 * @example
 * ```ts
 * const adapter = createElevenLabsAdapter({ name: 'eleven', baseUrl: 'https://api.elevenlabs.io',
 *   apiKey: process.env.ELEVENLABS_API_KEY!, tts: { model: 'eleven_flash_v2_5' } });
 * ```
 */
export function createElevenLabsAdapter(options: ElevenLabsAdapterOptions): ElevenLabsAdapter {
  const endpoint = createEndpoint(options.name, options.baseUrl, options.apiKey);
  return {
    name: options.name,
    ...(options.tts ? { tts: createTts(endpoint, options.tts, options) } : {}),
  };
}

function createTts(
  endpoint: ElevenLabsEndpoint,
  tts: ElevenLabsTtsOptions,
  options: ElevenLabsAdapterOptions,
): ElevenLabsTtsProvider {
  const transport = tts.transport ?? 'auto';
  const clock = options.clock ?? systemClock;
  const capabilities: TtsCapabilities = {
    outputFormats: elevenLabsOutputFormats(),
    streamingText: transport !== 'http',
    wordTimestamps: transport === 'websocket',
  };
  let made: Promise<WebSocketTransport> | undefined;
  const webSocketOf = async (attempt: AttemptContext): Promise<WebSocketTransport> => {
    if (attempt.webSocket) return attempt.webSocket;
    if (options.webSocket) return options.webSocket;
    made ??= Promise.resolve(createWebSocketTransport({ clock }));
    return made;
  };
  return {
    capabilities,
    async *synthesize(
      request: ElevenLabsTtsRequest,
      attempt: AttemptContext,
    ): AsyncGenerator<ElevenLabsAudio> {
      const streamed = typeof request.text !== 'string';
      if (transport === 'websocket' || (transport === 'auto' && streamed)) {
        const webSocket = await webSocketOf(attempt);
        yield* streamInput({ endpoint, options: tts, clock, webSocket }, request, attempt);
        return;
      }
      const text =
        typeof request.text === 'string'
          ? request.text
          : await joinStreamedText(request.text, attempt.signal);
      yield* httpStream(endpoint, tts, { ...request, text }, attempt);
    },
  };
}
