import { ProtocolError, ProviderError } from '../../errors/index.js';
import {
  clipMessage,
  closeReasonKind,
  isRetryableProviderKind,
  redactSecrets,
} from '../../transport/index.js';
import { deepgramCloseCode } from './listen-errors.js';

/**
 * The error of a `{"type":"Error", ...}` message on a listen socket, with which Deepgram ends a
 * session it cannot go on with. Its documented shape (Flux, `/v2/listen`) is
 * `{"type":"Error","sequence_id":n,"code":"INTERNAL_SERVER_ERROR","description":"..."}` (DGJS
 * `listen/v2/types/ListenV2FatalError`; developers.deepgram.com/reference/speech-to-text/listen-flux);
 * `/v1/listen` documents no such message, so the legacy field names (`err_code`, `err_msg`,
 * `message`, as in Deepgram's REST error bodies, PROTOCOLS.md 3.4) are read as well.
 * - No code and no description (as strings): a ProtocolError (a malformed message; retryable).
 * - Otherwise a ProviderError (no `status`: the socket's HTTP status was 101) whose message
 *   reads `Provider '<name>' sent an Error message on the listen socket [<code>]: <description>`,
 *   `providerCode` = the code, and by the code and description together:
 *   - Deepgram's `DATA-*` code (the audio cannot be decoded): not retryable, as its close;
 *   - `NET-*`, or words of a passing condition (quota, rate limit, too many, concurrency,
 *     timeout, overload: `closeReasonKind`): retryable, not auth;
 *   - words of an auth failure (unauthorized, forbidden, invalid or missing key, credential,
 *     permission): not retryable, `isAuthError` (the provider's breaker opens at once);
 *   - anything else: the rule for provider error kinds (`isRetryableProviderKind`: an invalid
 *     request or validation code is not retryable; a server error or an unknown code is).
 * Either way the router falls back. The description is cut to the usual length and every form
 * of `apiKey` is removed from it. `hadOutput` sets `partialOutput`.
 */
export function listenErrorMessage(
  provider: string,
  message: Record<string, unknown>,
  apiKey: string,
  hadOutput: boolean,
): ProtocolError | ProviderError {
  const code = text(message.code) ?? text(message.err_code) ?? text(message.error_code);
  const description = text(message.description) ?? text(message.err_msg) ?? text(message.message);
  if (code === undefined && description === undefined) {
    return new ProtocolError('Error message on the listen socket without a code or a description', {
      provider,
      partialOutput: hadOutput,
    });
  }
  const words = `${code ?? ''} ${description ?? ''}`.replaceAll('_', ' ');
  const deepgramCode = deepgramCloseCode(words);
  const kind = deepgramCode?.startsWith('NET-') ? 'transient' : closeReasonKind(words);
  const retryable = deepgramCode?.startsWith('DATA-')
    ? false
    : kind === 'transient' || (kind === 'other' && isRetryableProviderKind(undefined, code));
  const said = `Provider '${provider}' sent an Error message on the listen socket${code ? ` [${code}]` : ''}: ${clipMessage(description ?? 'no description')}`;
  return new ProviderError(redactSecrets(said, { authorization: apiKey }, provider), {
    provider,
    retryable,
    authError: kind === 'auth' && !deepgramCode?.startsWith('DATA-'),
    partialOutput: hadOutput,
    providerCode: code ?? deepgramCode,
  });
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
