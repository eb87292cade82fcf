import type { ProviderTtsRequest } from '../types.js';
import type { WireSpeechRequest } from './api-types.js';
import type { OpenAiTtsOptions } from './options.js';

/**
 * The `/audio/speech` JSON body (PROTOCOLS.md §2.3): `model` (the request's, else the
 * configured one, else left out: kind `openai` always has one, the adapter filling in
 * OPENAI_DEFAULT_TTS_MODEL), `input`, `voice`, `response_format`, `speed` when set, and
 * `stream_format: 'sse'` only in SSE mode, where `response_format` is always `'pcm'` (raw
 * samples are the only format whose base64 deltas can be joined; speaches sends PCM in SSE
 * mode whatever is asked, §6.3). `language` is not sent: OpenAI has no such field.
 */
export function speechRequestBody(request: ProviderTtsRequest, options: OpenAiTtsOptions): WireSpeechRequest {
  const sse = options.streamFormat === 'sse';
  const body: WireSpeechRequest = {
    input: request.text,
    voice: request.voice,
    response_format: sse ? 'pcm' : options.responseFormat,
  };
  const model = request.model ?? options.model;
  if (model !== undefined) body.model = model;
  if (request.speed !== undefined) body.speed = request.speed;
  if (sse) body.stream_format = 'sse';
  return body;
}
