import { ProviderError } from '../errors/index.js';
import { redactSecrets } from './redact.js';

/** Names of the standard close codes (RFC 6455 §7.4.1, IANA WebSocket Close Code registry). */
const CODE_NAMES: Record<number, string> = {
  1000: 'Normal Closure',
  1001: 'Going Away',
  1002: 'Protocol Error',
  1003: 'Unsupported Data',
  1005: 'No Status Received',
  1006: 'Abnormal Closure',
  1007: 'Invalid Payload Data',
  1008: 'Policy Violation',
  1009: 'Message Too Big',
  1010: 'Mandatory Extension',
  1011: 'Internal Error',
  1012: 'Service Restart',
  1013: 'Try Again Later',
  1014: 'Bad Gateway',
  1015: 'TLS Handshake',
  3000: 'Unauthorized',
  3003: 'Forbidden',
  3008: 'Timeout',
};

/** Close codes that say the request itself (or its credentials) is wrong: trying again cannot help. */
const NOT_RETRYABLE = new Set([1002, 1003, 1007, 1008, 1009, 1010, 3000, 3003]);

/** A close reason that names an authentication failure (invalid or missing key, unauthorized). */
const AUTH_REASON =
  /unauthori[sz]ed|not[\s_-]*authori[sz]ed|unauthenticated|authenticat|forbidden|(invalid|missing|wrong|bad)[\s_-]*(api[\s_-]*)?key|api[\s_-]*key|credential|permission/i;

/**
 * A close reason that names a passing condition: a quota or rate limit, too many concurrent
 * streams, an input or inactivity timeout, capacity. It wins over {@link AUTH_REASON} ("quota
 * exceeded for this API key" is a quota).
 */
const TRANSIENT_REASON =
  /quota|rate[\s_-]*limit|too[\s_-]*many|concurren|timeout|timed[\s_-]*out|inactiv|capacity|overload|busy|try[\s_-]*again/i;

/**
 * What a close reason (or a provider's error text sent with a close) says: `'transient'` (quota,
 * rate limit, concurrency, input timeout), `'auth'` (invalid or missing key, unauthorized,
 * forbidden), else `'other'`.
 */
export function closeReasonKind(reason: string): 'transient' | 'auth' | 'other' {
  if (TRANSIENT_REASON.test(reason)) return 'transient';
  return AUTH_REASON.test(reason) ? 'auth' : 'other';
}

/** What a close 1008 (policy violation) says, from its reason: see {@link policyCloseVerdict}. */
export interface PolicyCloseVerdict {
  /** Another attempt may succeed: the reason names a passing condition. */
  retryable: boolean;
  /** The reason names an authentication failure (the provider's breaker opens as `misconfigured`). */
  authError: boolean;
}

/**
 * The one rule for a WebSocket close 1008 (policy violation), which providers send both for a
 * bad key and for passing limits, so only its reason (or the provider's error code and message
 * sent with it) tells them apart ({@link closeReasonKind}):
 * - a quota, rate limit, concurrency ("too many connections") or input / inactivity timeout
 *   reason: `{ retryable: true, authError: false }` (an ordinary failure with the normal
 *   cooldown);
 * - an invalid or missing key, unauthorized or forbidden: `{ retryable: false, authError: true }`;
 * - anything else (no reason, a bad message): `{ retryable: false, authError: false }`.
 * Used by {@link closeError} and by every provider adapter that reads a 1008 itself (Deepgram
 * listen, ElevenLabs stream-input), so that they all agree.
 */
export function policyCloseVerdict(reason: string): PolicyCloseVerdict {
  const kind = closeReasonKind(reason);
  return { retryable: kind === 'transient', authError: kind === 'auth' };
}

/**
 * True when a close with `code` ends the stream normally: 1000 (normal closure) and 1005 (no
 * status code in the close frame), RFC 6455 §7.4.1.
 */
export function isNormalClose(code: number): boolean {
  return code === 1000 || code === 1005;
}

/**
 * Whether another attempt may succeed after the server closed with `code` and `reason`:
 * - 1008 policy violation: as {@link policyCloseVerdict} says (retryable only when its reason
 *   names a passing condition: quota, rate limit, concurrency, input timeout);
 * - not retryable: 1002 / 1003 / 1007 / 1009 / 1010 (our frames or data were refused), 3000 / 3003
 *   (IANA "Unauthorized" / "Forbidden"), and a 4000-4999 code whose reason names an
 *   authentication failure (unauthorized, forbidden, invalid key, api key, credential,
 *   permission);
 * - retryable: everything else, notably 1001, 1006 (connection lost), 1011, 1012, 1013, 1014,
 *   3008 and other 4000-4999 codes (provider-defined, e.g. rate limits or inactivity).
 */
export function isRetryableClose(code: number, reason: string): boolean {
  if (code === 1008) return policyCloseVerdict(reason).retryable;
  if (NOT_RETRYABLE.has(code)) return false;
  if (code >= 4000 && code <= 4999 && AUTH_REASON.test(reason)) return false;
  return true;
}

/**
 * True when a close says the key is missing, wrong or revoked: 1008 and a 4000-4999 code whose
 * reason names an auth failure ({@link closeReasonKind}), and 3000 / 3003 (IANA "Unauthorized" /
 * "Forbidden").
 */
function isAuthClose(code: number, reason: string): boolean {
  if (code === 3000 || code === 3003) return true;
  if (code === 1008) return policyCloseVerdict(reason).authError;
  return code >= 4000 && code <= 4999 && closeReasonKind(reason) === 'auth';
}

/**
 * The ProviderError of an error close (any code but 1000 / 1005): `status` = the close code,
 * `retryable` from {@link isRetryableClose}, `isAuthError` for 3000 / 3003 and for a 1008 or
 * 4000-4999 close only when its reason names an auth failure ({@link closeReasonKind}), and the message
 * `Provider '<name>' closed the WebSocket with code <code> (<name of code>): <reason>`, with every
 * secret in `secrets` (header-like record, see `redactSecrets`) removed from the reason.
 */
export function closeError(
  provider: string,
  code: number,
  reason: string,
  secrets: Record<string, string>,
): ProviderError {
  const name = CODE_NAMES[code];
  const detail = reason ? `: ${reason}` : '';
  const message = redactSecrets(
    `Provider '${provider}' closed the WebSocket with code ${code}${name ? ` (${name})` : ''}${detail}`,
    secrets,
    provider,
  );
  return new ProviderError(message, {
    provider,
    status: code,
    retryable: isRetryableClose(code, reason),
    ...(isAuthClose(code, reason) ? { authError: true } : code === 1008 ? { authError: false } : {}),
  });
}
