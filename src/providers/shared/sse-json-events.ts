import { isDoneSentinel, parseJsonEvents, parseSse } from '../../transport/index.js';
import type { HttpResponse } from '../../transport/types.js';
import { withPartialOutput } from './with-partial-output.js';

/** An item of {@link sseJsonEvents}: a parsed JSON event, or the `[DONE]` sentinel. */
export type SseJsonItem = { kind: 'json'; event: string | undefined; value: unknown } | { kind: 'done' };

/**
 * The JSON events of an OpenAI-style SSE body, in order, read with the transport's `parseSse`
 * and `parseJsonEvents`:
 * - `data: [DONE]` (matched after trimming, so padded forms count too) yields `{kind:'done'}`
 *   last and is never JSON-parsed; the transport then drains the rest of the body in the
 *   background so the connection can be reused (closed instead if it has not ended 1 s later). Comments and empty events never appear;
 *   a pending event at the end of the body is still delivered.
 * - A body that simply ends yields nothing more: the caller decides whether that is truncation.
 * - An error inside the 200 stream (`event: error`, or a JSON object with an `error` key:
 *   OpenAI's and vLLM's `data: {"error":{...}}`, PROTOCOLS.md §2.1, §6.1) throws the transport's
 *   ProviderError (`errorFromStreamPayload`), and data that is not JSON throws ProtocolError;
 *   both with `partialOutput` = `hadOutput()`.
 */
export async function* sseJsonEvents(
  provider: string,
  response: Pick<HttpResponse, 'body' | 'endWithin'>,
  hadOutput: () => boolean,
): AsyncGenerator<SseJsonItem> {
  let sawDone = false;
  const events = parseJsonEvents(parseSse(response.body, { provider }), {
    provider,
    response,
    isDone: (data) => {
      if (!isDoneSentinel(data)) return false;
      sawDone = true;
      return true;
    },
  });
  try {
    for await (const event of events) yield { kind: 'json', event: event.event, value: event.data };
  } catch (error) {
    throw withPartialOutput(error, hadOutput());
  }
  if (sawDone) yield { kind: 'done' };
}
