import { closeReasonKind } from './websocket-close.js';

/**
 * Whether an HTTP status is worth another attempt (on this provider later, or on another one).
 *
 * Retryable: 408 (request timeout), 409 (conflict, e.g. a lock), 425 (too early), 429 (rate
 * limited) and every 5xx, including Anthropic's 529 (overloaded). Not retryable: every other
 * status, in particular 400, 401, 403, 404, 413 and 422, where the request itself is bad and no
 * provider would do better. Source: RFC 9110 status semantics; the same set openai-node retries.
 *
 * @param status HTTP status code.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 409 || status === 425 || status === 429;
}

const NON_RETRYABLE_KIND =
  /invalid|auth|permission|forbidden|not_?found|bad_?request|unprocessable|validation|unsupported|content_?(policy|filter)|context_?length|quota|billing/i;
const RETRYABLE_KIND =
  /overload|rate_?limit|too_?many|server|api_error|internal|timeout|unavailable|capacity|concurrency|busy|try_?again/i;

/**
 * Whether an error reported by a provider inside a stream (an SSE error event, a WebSocket error
 * message) is worth another attempt, from its type and code.
 *
 * - A numeric code between 100 and 599 (vLLM sends the HTTP status as `error.code`, Cartesia a
 *   `status_code`) follows {@link isRetryableStatus}.
 * - Otherwise a type or code naming a bad request (`invalid_request_error`, `authentication_error`,
 *   `permission_error`, `not_found_error`, validation, quota) is not retryable, and one naming a
 *   transient failure (`overloaded_error`, `overloaded`, `rate_limit_error`, `api_error`,
 *   `server_error`, timeout, unavailable) is.
 * - Anything else is retryable: a failure in the middle of a stream is more often transient.
 *
 * Source: Anthropic error types (PROTOCOLS.md 6b), OpenAI and vLLM error bodies (2.1, 6.1).
 */
export function isRetryableProviderKind(
  type: string | undefined,
  code: string | number | undefined,
): boolean {
  if (typeof code === 'number' && code >= 100 && code <= 599) return isRetryableStatus(code);
  const words = `${type ?? ''} ${code ?? ''}`;
  if (NON_RETRYABLE_KIND.test(words)) return false;
  if (RETRYABLE_KIND.test(words)) return true;
  return true;
}

/**
 * Whether an error reported by a provider inside a stream is an authentication or permission
 * failure (a missing, wrong or revoked key), from its type and code, as a 401 or 403 status is
 * over HTTP: a numeric code of 401 or 403 (Cartesia's `status_code`, vLLM's `code`), or a type
 * or code naming it (`authentication_error`, `permission_error`, `invalid_api_key`,
 * `unauthorized`, `forbidden`) and no passing condition (a quota or rate limit: see
 * `closeReasonKind`). The router opens the provider's breaker at once for such a failure
 * (reason `auth`) instead of trying the key again on every call.
 * Source: Anthropic error types (PROTOCOLS.md 6b), OpenAI error codes (2.1), Cartesia's error
 * event (1.1).
 */
export function isAuthProviderKind(type: string | undefined, code: string | number | undefined): boolean {
  if (typeof code === 'number') return code === 401 || code === 403;
  return closeReasonKind(`${type ?? ''} ${code ?? ''}`.replaceAll('_', ' ')) === 'auth';
}
