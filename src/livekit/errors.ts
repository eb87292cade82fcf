import { APIError } from '@livekit/agents';
import { VoxrouteError } from 'voxroute';

/**
 * A voxroute failure as LiveKit sees it: a non-retryable `APIError` carrying the voxroute
 * error as `cause` and its `code` in `body`. Non-retryable because the router has already
 * failed over across the route: a LiveKit retry on top would try every provider again.
 */
export function toAPIError(error: unknown): APIError {
  if (error instanceof APIError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = VoxrouteError.isInstance(error) ? error.code : 'UNKNOWN';
  const wrapped = new APIError(`voxroute: ${message}`, { body: { code }, retryable: false });
  Object.defineProperty(wrapped, 'cause', { value: error, enumerable: false });
  return wrapped;
}
