import { ProtocolError } from '../../errors/index.js';
import { postToEndpoint } from '../shared/http-endpoint.js';
import { parseWire } from '../shared/parse-wire.js';
import { sseJsonEvents } from '../shared/sse-json-events.js';
import type { AttemptContext } from '../types.js';
import { ttsEventSchema } from './api-types.js';
import { type CartesiaEndpoint, cartesiaUrl } from './endpoint.js';
import type { CartesiaTtsOptions } from './options.js';
import { type CartesiaAudio, TtsEventReader } from './tts-events.js';
import { type CartesiaTtsRequest, ttsBody } from './tts-request.js';

/**
 * TTS over `POST {baseUrl}/tts/sse` (PROTOCOLS.md 1.4): the body of `ttsBody` (raw
 * `output_format`, `add_timestamps` unless `options.addTimestamps` is false), answered with
 * data-only server-sent events told apart by their JSON `type`: `chunk` (base64 audio, yielded
 * labelled `request.format`), `timestamps` (word timings, attached to the next chunk as
 * `words`, in ms), `done` (the end; there is no `[DONE]` sentinel) and `error`.
 * Throws what the transport throws, ProviderError for an `error` event (`status_code` decides
 * `retryable`; `partialOutput` when audio was yielded), ProtocolError for a malformed event or
 * a stream that ends without `done` (truncated, retryable).
 */
export async function* synthesizeSse(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest & { text: string },
  attempt: AttemptContext,
): AsyncGenerator<CartesiaAudio> {
  const provider = endpoint.provider;
  const body = ttsBody(provider, request, options, request.text, options.addTimestamps ?? true);
  const response = await postToEndpoint(endpoint.http, attempt, cartesiaUrl(endpoint, '/tts/sse'), {
    contentType: 'application/json',
    accept: 'text/event-stream',
    body: JSON.stringify(body),
  });
  const reader = new TtsEventReader(provider, request.format);
  let ended = false;
  try {
    for await (const item of sseJsonEvents(provider, response, () => reader.hadOutput)) {
      if (item.kind === 'done') break;
      const event = parseWire(ttsEventSchema(), item.value, provider, 'TTS event', reader.hadOutput);
      const step = reader.push(event);
      if (step.audio) yield step.audio;
      if (step.done) {
        ended = true;
        reader.end();
        return;
      }
    }
    ended = true;
    throw new ProtocolError('TTS event stream ended before its done event (truncated)', {
      provider,
      partialOutput: reader.hadOutput,
    });
  } finally {
    if (!ended) await response.cancel();
  }
}
