import { ProviderError } from '../../errors/index.js';

/** The fields of a ProviderError that {@link copyProviderError} can change. */
export interface ProviderErrorChanges {
  retryable?: boolean;
  authError?: boolean;
  unknownModel?: boolean;
  partialOutput?: boolean;
}

/**
 * A new ProviderError with every field of `error` (message, provider, status, provider code and
 * type, `retryAfterMs`, the connection flags) and `changes` applied, `error` as its `cause`.
 * `authError` is kept as it was unless changed: an in-band auth error has no status to derive
 * it from.
 */
export function copyProviderError(error: ProviderError, changes: ProviderErrorChanges): ProviderError {
  return new ProviderError(error.message, {
    provider: error.provider ?? '',
    status: error.status,
    providerCode: error.providerCode,
    providerType: error.providerType,
    retryAfterMs: error.retryAfterMs,
    retryable: changes.retryable ?? error.retryable,
    reusedSocketReset: error.reusedSocketReset,
    idleTimeout: error.idleTimeout,
    connectionLost: error.connectionLost,
    authError: changes.authError ?? error.isAuthError,
    unknownModel: changes.unknownModel ?? error.unknownModel,
    partialOutput: changes.partialOutput ?? error.partialOutput,
    cause: error,
  });
}
