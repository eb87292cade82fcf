import type { StreamedText } from '../shared/text-piece.js';
import type { ProviderTtsRequest } from '../types.js';
import type { WireContextRequest, WireTtsBody } from './api-types.js';
import { wireOutputFormat } from './formats.js';
import type { CartesiaTtsOptions } from './options.js';

/** Slowest and fastest `generation_config.speed` Cartesia accepts (PROTOCOLS.md 1.3: 0.6-1.5). */
export const SPEED_RANGE = { min: 0.6, max: 1.5 } as const;

/** A TTS request whose text may still be arriving (streamed input, e.g. LLM tokens). */
export type CartesiaTtsRequest = Omit<ProviderTtsRequest, 'text'> & { text: string | StreamedText };

/**
 * The fields every Cartesia TTS request carries (PROTOCOLS.md 1.3-1.5), with `transcript`:
 * `model_id` (the request's, else the configured one), `voice: {mode:'id', id}`, the raw
 * `output_format` of `request.format` (throws ProviderError when Cartesia cannot make it),
 * `language` (the request's or the configured one, as its primary subtag: `en-US` -> `en`),
 * `generation_config.speed` when a speed is given (clamped to 0.6..1.5, the range Cartesia
 * accepts, rather than failing the call), and `add_timestamps` when `timestamps` is true.
 */
export function ttsBody(
  provider: string,
  request: Omit<CartesiaTtsRequest, 'text'>,
  options: CartesiaTtsOptions,
  transcript: string,
  timestamps: boolean,
): WireTtsBody {
  const body: WireTtsBody = {
    model_id: request.model ?? options.model,
    transcript,
    voice: { mode: 'id', id: request.voice },
    output_format: wireOutputFormat(provider, request.format),
  };
  const language = (request.language ?? options.language)?.split(/[-_]/)[0]?.toLowerCase();
  if (language) body.language = language;
  if (request.speed !== undefined && Number.isFinite(request.speed)) {
    body.generation_config = {
      speed: Math.min(SPEED_RANGE.max, Math.max(SPEED_RANGE.min, request.speed)),
    };
  }
  if (timestamps) body.add_timestamps = true;
  return body;
}

/**
 * One websocket generation request of a context (PROTOCOLS.md 1.5): the shared fields again
 * (as the SDK resends them on every message), `context_id`, this piece of `transcript`, and
 * `continue` (true while more text follows; the end of input is `transcript: ''` with
 * `continue: false`), plus `max_buffer_delay_ms` when configured.
 */
export function contextRequest(
  base: WireTtsBody,
  contextId: string,
  transcript: string,
  more: boolean,
  maxBufferDelayMs: number | undefined,
): WireContextRequest {
  const message: WireContextRequest = { ...base, transcript, context_id: contextId, continue: more };
  if (maxBufferDelayMs !== undefined) message.max_buffer_delay_ms = maxBufferDelayMs;
  return message;
}
