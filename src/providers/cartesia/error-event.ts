import type { ProviderError } from '../../errors/index.js';
import { errorFromStreamPayload } from '../../transport/index.js';
import { markUnknownModel } from '../shared/unknown-model.js';

/**
 * The ProviderError of a Cartesia `error` event (SSE, TTS and STT WebSockets):
 * `{"type":"error","done":true,"status_code","error_code","title","message","request_id"}`
 * (PROTOCOLS.md 1.1; Cartesia API errors page, "WebSocket Error Event Object"). It is the
 * transport's error of the payload (`errorFromStreamPayload`: `status_code` decides `retryable`,
 * `error_code` is `providerCode`), with `unknownModel` set when the event says that the model or
 * voice sent is unknown: a `status_code` of 400, 404 or 422 with an `error_code` or a
 * title/message naming it (the rule every adapter shares, `namesUnknownModel`; Cartesia documents
 * no code of its own for it). `hadOutput` sets `partialOutput`.
 */
export function cartesiaErrorEvent(
  provider: string,
  event: Record<string, unknown>,
  hadOutput: boolean,
): ProviderError {
  const error = errorFromStreamPayload(provider, event, undefined, hadOutput);
  const status = typeof event.status_code === 'number' ? event.status_code : undefined;
  const text = [event.title, event.message].filter((part) => typeof part === 'string').join(': ');
  return markUnknownModel(error, { status, code: event.error_code, text });
}
