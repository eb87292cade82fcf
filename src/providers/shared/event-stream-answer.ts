import { ProtocolError } from '../../errors/index.js';
import { errorFromStreamPayload, isStreamErrorPayload } from '../../transport/stream-error.js';
import type { HttpResponse } from '../../transport/types.js';
import { peekFirstByte } from './first-byte.js';
import { readJsonBody } from './json-body.js';

const HTML = /^(?:text\/html|application\/xhtml\+xml)$/;

/**
 * The 2xx answer to a request for server-sent events (chat, speech or TTS events), checked
 * before its body is read as events, so that an answer that is not an event stream fails at
 * once, with what it says, instead of waiting for the idle deadline:
 * - Content-Type `text/event-stream`, or none: `response` as it is (nothing read);
 * - an HTML type (`text/html`, `application/xhtml+xml`: a captive portal's or a proxy's page):
 *   ProtocolError naming the type, the response cancelled;
 * - any other type whose body starts (after white space, and a UTF-8 byte order mark) with `{`
 *   or `[` (a gateway's error
 *   sent whole with 200, a server that ignored `stream: true`): the body is read as one JSON
 *   document (at most 8 MiB, see `readJsonBody`); an error object (`{"error":{...}}`,
 *   `{"type":"error",...}`) throws its ProviderError (type, code, `retryable` as for an error
 *   event inside the stream), anything else ProtocolError;
 * - any other type whose body starts otherwise (an event stream labelled `text/plain`,
 *   `application/json` or `application/octet-stream`): an answer whose body replays the bytes
 *   read to tell, then the rest, for the event parser.
 * Errors here have `partialOutput` false (nothing was yielded) and are retryable when the
 * provider's error is. The Content-Type is put in messages as sent (the router redacts them).
 */
export async function eventStreamAnswer(provider: string, response: HttpResponse): Promise<HttpResponse> {
  const type = response.headers['content-type'];
  if (type === undefined) return response;
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (media === 'text/event-stream') return response;
  if (HTML.test(media)) {
    await response.cancel();
    throw new ProtocolError(`Answer has Content-Type '${type}', not text/event-stream`, { provider });
  }
  const { first, body } = await peekFirstByte(response.body).catch(async (error: unknown) => {
    await response.cancel();
    throw error;
  });
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return { ...answerOf(response), body };
  const json = await readJsonBody(provider, body).catch(async (error: unknown) => {
    await response.cancel();
    throw error;
  });
  if (isStreamErrorPayload(json)) throw errorFromStreamPayload(provider, json, undefined, false);
  throw new ProtocolError(`Answer is a JSON document (Content-Type '${type}'), not an event stream`, {
    provider,
  });
}

/** The answer's fields and methods, bound to it (a copy of the object would lose them). */
function answerOf(response: HttpResponse): HttpResponse {
  const answer: HttpResponse = {
    status: response.status,
    headers: response.headers,
    body: response.body,
    cancel: () => response.cancel(),
  };
  if (response.endWithin) answer.endWithin = (ms) => response.endWithin?.(ms);
  return answer;
}
