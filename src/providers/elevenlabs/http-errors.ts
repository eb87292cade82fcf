import type { HttpErrorReader, HttpErrorVerdict } from '../shared/http-error-verdict.js';

/**
 * `detail.status` values of a 401 that are passing account limits, not a bad key: the character
 * quota is used up (`quota_exceeded`), or the free tier is paused for unusual activity
 * (`detected_unusual_activity`). ElevenLabs answers both with 401.
 */
const TRANSIENT_401 = new Set(['quota_exceeded', 'detected_unusual_activity']);

/** `detail.status` values that say the voice or model id sent is unknown to ElevenLabs. */
const UNKNOWN_MODEL = new Set(['voice_not_found', 'model_not_found']);

/**
 * How the ElevenLabs HTTP adapter reads an error answer `{"detail":{"status","message"}}` (the
 * transport puts `detail.status` in `providerCode`, PROTOCOLS.md 4.2):
 * - a 401 whose status is `quota_exceeded` or `detected_unusual_activity` is
 *   `{ retryable: true, authError: false }`: an ordinary failure with the normal cooldown, not a
 *   misconfigured key (any other 401 stays an auth failure);
 * - a 4xx whose status is `voice_not_found` or `model_not_found` is `{ unknownModel: true }`: the
 *   config's voice or model id for this provider is wrong, so the router falls back even on a
 *   400 (see `ProviderError.unknownModel`);
 * - anything else keeps the transport's verdict.
 */
export const readElevenLabsHttpError: HttpErrorReader = (error): HttpErrorVerdict | undefined => {
  const status = typeof error.providerCode === 'string' ? error.providerCode.toLowerCase() : undefined;
  if (status === undefined) return undefined;
  if (error.status === 401 && TRANSIENT_401.has(status)) return { retryable: true, authError: false };
  if (error.status >= 400 && error.status < 500 && UNKNOWN_MODEL.has(status)) return { unknownModel: true };
  return undefined;
};
