import { ProviderError } from '../errors/index.js';
import { isRetryableStatus } from './classify.js';
import { parseErrorBody } from './error-body.js';
import { redactSecrets } from './redact.js';
import { parseRetryAfter } from './retry-after.js';

/** Inputs of {@link providerErrorFromStatus}. */
export interface StatusErrorInput {
  provider: string;
  /** HTTP status of the response (any non-2xx). */
  status: number;
  /** Response headers, lower-case names (`retry-after`, `retry-after-ms`, `content-type` are read). */
  headers: Record<string, string>;
  /** The start of the response body, decoded as UTF-8 (may be empty or cut). */
  bodyText: string;
  /** The request's headers: any secret among them is removed from the message. */
  requestHeaders?: Record<string, string>;
  /** Wall-clock ms since the epoch, for an HTTP-date `Retry-After`. Default: `Date.now()`. */
  nowMs?: number;
}

/**
 * Builds the ProviderError of an HTTP error status: `status`, `retryable` from
 * {@link isRetryableStatus}, `retryAfterMs` from `Retry-After` / `retry-after-ms`, and the
 * provider's message, type and code from {@link parseErrorBody}. The message reads
 * `Provider '<name>' answered HTTP <status>: <provider message>`; it never holds a request header
 * or the URL (which may carry a key in its query).
 */
export function providerErrorFromStatus(input: StatusErrorInput): ProviderError {
  // Redact, then cut: a key the cut splits could no longer be found whole.
  const parsed = parseErrorBody(
    redactSecrets(input.bodyText, input.requestHeaders),
    input.headers['content-type'],
  );
  const message = redactSecrets(
    `Provider '${input.provider}' answered HTTP ${input.status}: ${parsed.message}`,
    input.requestHeaders,
    input.provider,
  );
  return new ProviderError(message, {
    provider: input.provider,
    status: input.status,
    retryable: isRetryableStatus(input.status),
    retryAfterMs: parseRetryAfter(input.headers, input.nowMs),
    providerCode: parsed.providerCode,
    providerType: parsed.providerType,
  });
}
