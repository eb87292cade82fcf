import { ProviderError } from '../../errors/index.js';
import {
  clipMessage,
  isRetryableProviderKind,
  policyCloseVerdict,
  redactSecrets,
} from '../../transport/index.js';
import { markUnknownModel } from '../shared/unknown-model.js';
import type { ServerMessage } from './api-types.js';

/** The server's inactivity close: no text for `inactivity_timeout` seconds (PROTOCOLS.md 4.3). */
export const INPUT_TIMEOUT = 'input_timeout_exceeded';

/**
 * Whether a stream-input failure may succeed on another attempt, from the server's error code
 * (`error` of its error message, e.g. `input_timeout_exceeded`, `invalid_api_key`,
 * `quota_exceeded`) and the close code:
 * - the inactivity close (`input_timeout_exceeded`, sent with 1008) is retryable: a new socket
 *   with keep-alives does fine;
 * - any other 1008 follows the transport's one rule for 1008 (`policyCloseVerdict` of its code
 *   and message): retryable when they name a passing condition (quota, rate limit,
 *   concurrency, timeout), else not (a bad key, a bad message, abuse detection);
 * - with any other close code (1011 included) or none, an error code or message naming such a
 *   passing condition (`quota_exceeded` with 1011) is retryable too, as under 1008: an ordinary
 *   failure with the normal cooldown;
 * - otherwise the transport's rule for provider error kinds (invalid, auth, quota: not
 *   retryable; rate limits, overload, server errors and unknown kinds: retryable), and for a
 *   bare close its close-code rule (`closeRetryable`).
 */
export function isRetryableStreamInput(
  errorCode: string | undefined,
  closeCode: number | undefined,
  closeRetryable: boolean,
  reason = '',
): boolean {
  if (errorCode === INPUT_TIMEOUT) return true;
  const verdict = policyCloseVerdict(`${errorCode ?? ''} ${reason}`);
  if (closeCode === 1008) return verdict.retryable;
  // A passing condition the server names (`quota_exceeded`, a rate or concurrency limit) is one
  // whatever the close code it comes with (ElevenLabs also sends `quota_exceeded` with 1011).
  if (errorCode !== undefined && verdict.retryable) return true;
  if (errorCode !== undefined) return isRetryableProviderKind(errorCode, undefined) && closeRetryable;
  return closeRetryable;
}

/**
 * The ProviderError of a stream-input failure that the server explained with an error message
 * (`{"message","error","code"}`) and/or ended with an error close (`closed`, the transport's
 * ProviderError whose `status` is the close code). The message reads
 * `Provider '<name>' ended the stream-input WebSocket (close <code>) [<error>]: <message>` (for a
 * bare close, the transport's message);
 * `status` is the close code (else the message's `code`), `providerCode` the message's `error`,
 * `retryable` from {@link isRetryableStreamInput}, `unknownModel` when `error` is
 * `voice_not_found` or `model_not_found` (`namesUnknownModel`). Any of `secrets` (e.g. the API key, which
 * a server might echo) is removed from the text.
 */
export function streamInputError(
  provider: string,
  server: ServerMessage | undefined,
  closed: ProviderError | undefined,
  partialOutput: boolean,
  secrets: Record<string, string>,
): ProviderError {
  const closeCode = closed?.status ?? server?.code ?? undefined;
  const errorCode = server?.error ?? undefined;
  const reason = server?.message ?? closed?.message ?? '';
  let message: string;
  if (server === undefined && closed !== undefined) {
    message = redactSecrets(closed.message, secrets, provider);
  } else {
    const code = closeCode !== undefined ? ` (close ${closeCode})` : '';
    const kind = errorCode !== undefined ? ` [${errorCode}]` : '';
    message = clipMessage(
      redactSecrets(
        `Provider '${provider}' ended the stream-input WebSocket${code}${kind}: ${server?.message ?? 'no message'}`,
        secrets,
        provider,
      ),
    );
  }
  const error = new ProviderError(message, {
    provider,
    status: closeCode,
    providerCode: errorCode,
    retryable: isRetryableStreamInput(errorCode, closeCode, closed?.retryable ?? true, reason),
    // A 1008 is an auth failure only when its text says so (not a quota or an idle input).
    ...(closeCode === 1008
      ? { authError: policyCloseVerdict(`${errorCode ?? ''} ${reason}`).authError }
      : {}),
    partialOutput,
    ...(closed ? { cause: closed } : {}),
  });
  // The message's `error` naming an unknown voice or model (`voice_not_found`, `model_not_found`,
  // as ElevenLabs' HTTP `detail.status` says it): the rule every adapter shares. A stream-input
  // error carries no HTTP status, so its words alone are not enough.
  return markUnknownModel(error, { code: errorCode });
}
