import { ProviderError } from '../errors/provider-error.js';
import { VoxrouteError } from '../errors/voxroute-error.js';

/**
 * HTTP statuses that say the request itself is bad, so another provider would refuse it too:
 * 400 Bad Request, 413 Content Too Large, 422 Unprocessable Content. These are thrown at once.
 */
const BAD_REQUEST = new Set([400, 413, 422]);

/**
 * Whether a failure before the first chunk moves the call on to the next candidate.
 * Yes for every provider-side failure, retryable or not: network errors, 5xx, 429, deadlines,
 * malformed frames, and also 401/403/404 (this provider is misconfigured; another may be fine),
 * and a 400 / 422 that names a model or voice the provider does not know
 * (`ProviderError.unknownModel`: the config's id for this provider is wrong, not the request).
 * No for a cancelled call, for a request the provider called bad (400, 413, 422), and for a
 * conversion of the provider's audio that failed in voxroute (AudioConversionError).
 */
export function canFallBack(error: unknown): boolean {
  if (!VoxrouteError.isInstance(error)) return true;
  if (error.code === 'ABORTED' || error.code === 'AUDIO_CONVERSION_FAILED' || isUsageError(error))
    return false;
  if (
    ProviderError.isInstance(error) &&
    !error.unknownModel &&
    error.status !== undefined &&
    BAD_REQUEST.has(error.status)
  )
    return false;
  return true;
}

/**
 * True for an error that is the caller's or the config's, not the provider's: a RequestError,
 * a ConfigError (e.g. a header value the HTTP client refused to send), or the base class,
 * which marks usage errors. The router ends the call with it and charges no provider.
 */
export function isUsageError(error: unknown): boolean {
  if (!VoxrouteError.isInstance(error)) return false;
  return (
    error.code === 'CONFIG_INVALID' || error.code === 'VOXROUTE_ERROR' || error.code === 'REQUEST_INVALID'
  );
}
