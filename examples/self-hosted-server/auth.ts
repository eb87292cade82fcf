import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Checks `Authorization: Bearer <apiKey>` (PROTOCOLS.md 2.1) in constant time. Does nothing when
 * `apiKey` is undefined. Throws ApiError 401 `invalid_api_key`; the message never repeats the
 * key that was sent or the one expected.
 */
export function checkBearer(req: IncomingMessage, apiKey: string | undefined): void {
  if (apiKey === undefined) return;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (match?.[1] !== undefined && timingSafeEqual(digest(match[1].trim()), digest(apiKey))) return;
  req.resume();
  throw new ApiError(
    401,
    header === '' ? 'Missing bearer token: send Authorization: Bearer <key>.' : 'Incorrect API key provided.',
    { code: 'invalid_api_key' },
  );
}
