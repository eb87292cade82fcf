import type { HttpErrorReader, HttpErrorVerdict } from '../shared/http-error-verdict.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';

/**
 * `detail.status` values of a 401 that are passing account limits, not a bad key: the character
 * quota is used up (`quota_exceeded`), or the free tier is paused for unusual activity
 * (`detected_unusual_activity`). ElevenLabs answers both with 401.
 */
const TRANSIENT_401 = new Set(['quota_exceeded', 'detected_unusual_activity']);

/**
 * How the ElevenLabs HTTP adapter reads an error answer `{"detail":{"status","message"}}` (the
 * transport puts `detail.status` in `providerCode`, PROTOCOLS.md 4.2):
 * - a 401 whose status is `quota_exceeded` or `detected_unusual_activity` is
 *   `{ retryable: true, authError: false }`: an ordinary failure with the normal cooldown, not a
 *   misconfigured key (any other 401 stays an auth failure);
 * - a 400, 404 or 422 whose status is `voice_not_found` or `model_not_found` (or whose message
 *   says the voice or model was not found) is `{ unknownModel: true }`: the config's voice or
 *   model id for this provider is wrong, so the router falls back even on a 400 (see
 *   `ProviderError.unknownModel`; the rule every adapter shares, `namesUnknownModel`);
 * - anything else keeps the transport's verdict.
 */
export const readElevenLabsHttpError: HttpErrorReader = (error): HttpErrorVerdict | undefined => {
  const status = typeof error.providerCode === 'string' ? error.providerCode.toLowerCase() : undefined;
  if (error.status === 401 && status !== undefined && TRANSIENT_401.has(status))
    return { retryable: true, authError: false };
  return readUnknownModelHttpError(error);
};
