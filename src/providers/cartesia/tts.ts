import type { Clock } from '../../internal/clock.js';
import { joinStreamedText, type StreamedText } from '../shared/text-piece.js';
import type { AttemptContext, TtsCapabilities, TtsProvider } from '../types.js';
import type { CartesiaEndpoint } from './endpoint.js';
import { CARTESIA_TTS_FORMATS } from './formats.js';
import type { CartesiaTtsOptions, CartesiaTtsTransport } from './options.js';
import type { TtsSocketPool } from './socket-pool.js';
import { synthesizeBytes } from './tts-bytes.js';
import type { CartesiaAudio } from './tts-events.js';
import type { CartesiaTtsRequest } from './tts-request.js';
import { synthesizeSse } from './tts-sse.js';
import { synthesizeWebSocket } from './tts-websocket.js';

/**
 * A Cartesia TTS provider. `synthesize` takes the text as a string (today's ProviderTtsRequest)
 * or as an async iterable of pieces (streamed text, e.g. LLM tokens), which only the websocket
 * endpoint accepts as it arrives (bytes and sse join it first).
 */
export interface CartesiaTtsProvider extends TtsProvider {
  synthesize(request: CartesiaTtsRequest, attempt: AttemptContext): AsyncIterable<CartesiaAudio>;
}

/**
 * The endpoint one call uses: the configured one, where `'auto'` is the websocket for streamed
 * text and `/tts/bytes` for a whole string.
 */
export function pickTtsTransport(
  configured: CartesiaTtsTransport,
  text: string | StreamedText,
): Exclude<CartesiaTtsTransport, 'auto'> {
  if (configured !== 'auto') return configured;
  return typeof text === 'string' ? 'bytes' : 'websocket';
}

/**
 * Text-to-speech with Cartesia (PROTOCOLS.md 1.2-1.5). `capabilities`:
 * - `outputFormats`: all 24 raw formats Cartesia makes (PCM s16le, PCM f32le, mu-law, A-law at
 *   8000-48000 Hz; see CARTESIA_TTS_FORMATS), so the router asks for the caller's own format;
 * - `streamingText`: true unless the transport is `'bytes'` or `'sse'` (the websocket takes text
 *   pieces as they come);
 * - `wordTimestamps`: true when the transport is `'sse'` or `'websocket'` and `addTimestamps` is
 *   on (with `'auto'` only streamed text, which goes over the websocket, gets them).
 * See synthesizeBytes, synthesizeSse and synthesizeWebSocket for each endpoint's behaviour and errors.
 */
export function createCartesiaTts(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  pool: TtsSocketPool,
  clock: Clock,
): CartesiaTtsProvider {
  const configured = options.transport ?? 'auto';
  const timestamps = options.addTimestamps ?? true;
  const capabilities: TtsCapabilities = {
    outputFormats: CARTESIA_TTS_FORMATS.map((f) => ({ ...f })),
    streamingText: configured === 'websocket' || configured === 'auto',
    wordTimestamps: timestamps && (configured === 'sse' || configured === 'websocket'),
  };
  return {
    capabilities,
    synthesize(request: CartesiaTtsRequest, attempt: AttemptContext): AsyncIterable<CartesiaAudio> {
      const transport = pickTtsTransport(configured, request.text);
      if (transport === 'websocket')
        return synthesizeWebSocket(endpoint, options, pool, clock, request, attempt);
      // A string text on /tts/bytes, the common case, is read by plain calls (see synthesizeBytes).
      if (transport === 'bytes' && typeof request.text === 'string')
        return synthesizeBytes(endpoint, options, { ...request, text: request.text }, attempt);
      return synthesizeWhole(endpoint, options, request, attempt, transport);
    },
  };
}

/** /tts/sse, or streamed text joined first for /tts/bytes. */
async function* synthesizeWhole(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest,
  attempt: AttemptContext,
  transport: 'sse' | 'bytes',
): AsyncGenerator<CartesiaAudio> {
  const text = typeof request.text === 'string' ? request.text : await joinStreamedText(request.text);
  const whole = { ...request, text };
  if (transport === 'sse') yield* synthesizeSse(endpoint, options, whole, attempt);
  else yield* synthesizeBytes(endpoint, options, whole, attempt);
}
