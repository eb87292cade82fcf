import { ProtocolError, ProviderError } from '../../errors/index.js';

/**
 * `error` with its `partialOutput` set to `partialOutput`: the same object when it already
 * matches (or is not a ProviderError/ProtocolError), else a copy of the same class with every
 * field kept and the original as `cause`. Used because the transport's helpers count any
 * parsed event as output, while the adapter knows whether text or audio reached the caller.
 */
export function withPartialOutput(error: unknown, partialOutput: boolean): unknown {
  if (ProviderError.isInstance(error) && error.partialOutput !== partialOutput) {
    return new ProviderError(error.message, {
      provider: error.provider ?? '',
      status: error.status,
      providerCode: error.providerCode,
      providerType: error.providerType,
      retryAfterMs: error.retryAfterMs,
      retryable: error.retryable,
      partialOutput,
      cause: error,
    });
  }
  if (ProtocolError.isInstance(error) && error.partialOutput !== partialOutput) {
    return new ProtocolError(error.message, {
      provider: error.provider,
      offset: error.offset,
      retryable: error.retryable,
      partialOutput,
      cause: error,
    });
  }
  return error;
}
