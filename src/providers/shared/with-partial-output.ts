import { ProtocolError, ProviderError, TimeoutError } from '../../errors/index.js';
import { copyProviderError } from './copy-provider-error.js';

/**
 * `error` with its `partialOutput` set to `partialOutput`: the same object when it already
 * matches (or is not a ProviderError, ProtocolError or TimeoutError), else a copy of the same
 * class with every field kept and the original as `cause`. Adapters use it because the
 * transport cannot know whether text or audio reached the caller (it counts any parsed event
 * or byte); the adapter does.
 */
export function withPartialOutput(error: unknown, partialOutput: boolean): unknown {
  if (ProviderError.isInstance(error) && error.partialOutput !== partialOutput) {
    return copyProviderError(error, { partialOutput });
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
    const copy = new TimeoutError(error.phase, error.timeoutMs, {
      ...(error.setting !== undefined ? { setting: error.setting } : {}),
      provider: error.provider,
      retryable: error.retryable,
      partialOutput,
      cause: error,
    });
    // As they were: a timeout of the HTTP client's own has no setting and a message of its own.
    const same = copy as { message: string; setting: TimeoutError['setting'] };
    same.message = error.message;
    same.setting = error.setting;
    return copy;
  }
  return error;
}
