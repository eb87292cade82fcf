import { ProtocolError } from '../../errors/index.js';
import { drainRest } from '../../transport/drain-rest.js';
import { eventStreamAnswer } from '../shared/event-stream-answer.js';
import { postToEndpoint } from '../shared/http-endpoint.js';
import { parseWire } from '../shared/parse-wire.js';
import { sseJsonEvents } from '../shared/sse-json-events.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';
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
 * After `done` the rest of the body is read in the background (at most 1 s), so the connection
 * goes back to the pool. Throws what the transport throws, ProviderError for an `error` event (`status_code` decides
 * `retryable`; `partialOutput` when audio was yielded) or an error sent whole as a 200 JSON
 * document, ProtocolError for a malformed event, a stream that ends without `done` (truncated,
 * retryable) or a 200 answer that is not an event stream (see `eventStreamAnswer`).
 */
export async function* synthesizeSse(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest & { text: string },
  attempt: AttemptContext,
): AsyncGenerator<CartesiaAudio> {
  const provider = endpoint.provider;
  const body = ttsBody(provider, request, options, request.text, options.addTimestamps ?? true);
  const response = await eventStreamAnswer(
    provider,
    await postToEndpoint(endpoint.http, attempt, cartesiaUrl(endpoint, '/tts/sse'), {
      contentType: 'application/json',
      accept: 'text/event-stream',
      body: JSON.stringify(body),
      errors: readUnknownModelHttpError,
    }),
  );
  const reader = new TtsEventReader(provider, request.format);
  const items = sseJsonEvents(provider, response, () => reader.hadOutput);
  let ended = false;
  try {
    for (let r = await items.next(); !r.done; r = await items.next()) {
      const item = r.value;
      if (item.kind === 'done') break;
      const event = parseWire(ttsEventSchema(), item.value, provider, 'TTS event', reader.hadOutput);
      const step = reader.push(event);
      if (step.audio) yield step.audio;
      if (step.done) {
        ended = true;
        reader.end();
        // The server ends the body after `done`: read that end in the background so the
        // connection is reused (leaving the loop would close it).
        drainRest(items, response);
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
