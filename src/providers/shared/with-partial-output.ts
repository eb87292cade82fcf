import { ProtocolError, ProviderError, TimeoutError } from '../../errors/index.js';

/**
 * `error` with its `partialOutput` set to `partialOutput`: the same object when it already
 * matches (or is not a ProviderError, ProtocolError or TimeoutError), else a copy of the same
 * class with every field kept and the original as `cause`. Adapters use it because the
 * transport cannot know whether text or audio reached the caller (it counts any parsed event
 * or byte); the adapter does.
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
      reusedSocketReset: error.reusedSocketReset,
      idleTimeout: error.idleTimeout,
      connectionLost: error.connectionLost,
      // Kept as it was: an in-band auth error has no status to derive it from.
      authError: error.isAuthError,
      unknownModel: error.unknownModel,
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
  if (TimeoutError.isInstance(error) && error.partialOutput !== partialOutput) {
    return new TimeoutError(error.phase, error.timeoutMs, {
      ...(error.setting !== undefined ? { setting: error.setting } : {}),
      provider: error.provider,
      retryable: error.retryable,
      partialOutput,
      cause: error,
    });
  }
  return error;
}
