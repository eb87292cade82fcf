import { ProviderError } from '../../errors/index.js';
import { copyProviderError } from './copy-provider-error.js';

/**
 * What a provider adapter reads from one of its own HTTP error answers beyond the status (from
 * the error code, type and message the transport parsed out of the body): each field given
 * replaces the ProviderError's own; fields left out keep it.
 */
export interface HttpErrorVerdict {
  /** Whether another attempt may succeed (`ProviderError.retryable`). */
  retryable?: boolean;
  /** Whether the provider refused our credentials (`ProviderError.isAuthError`). */
  authError?: boolean;
  /** The provider does not know the model or voice it was sent (`ProviderError.unknownModel`). */
  unknownModel?: boolean;
}

/**
 * A provider's reading of its HTTP error answers: the verdict for a ProviderError that carries
 * an HTTP status (100-599), or undefined to keep it as the transport classed it.
 */
export type HttpErrorReader = (error: ProviderError & { status: number }) => HttpErrorVerdict | undefined;

/**
 * `error` with `reader`'s verdict applied: the same object when it is not a ProviderError with an
 * HTTP status, when the reader has no verdict, or when the verdict changes nothing; otherwise a
 * ProviderError copy with every other field kept (message, status, codes, Retry-After,
 * `partialOutput`...) and the original as its `cause`.
 */
export function readHttpError(error: unknown, reader: HttpErrorReader): unknown {
  if (!ProviderError.isInstance(error) || error.status === undefined) return error;
  if (error.status < 100 || error.status > 599) return error;
  const verdict = reader(error as ProviderError & { status: number });
  if (verdict === undefined) return error;
  const retryable = verdict.retryable ?? error.retryable;
  const authError = verdict.authError ?? error.isAuthError;
  const unknownModel = verdict.unknownModel ?? error.unknownModel;
  if (
    retryable === error.retryable &&
    authError === error.isAuthError &&
    unknownModel === error.unknownModel
  ) {
    return error;
  }
  return copyProviderError(error, { retryable, authError, unknownModel });
}

/**
 * Awaits `request` (an HTTP exchange of the attempt's transport); what it throws is rethrown
 * through {@link readHttpError} with `reader`. Resolves with what `request` resolves with.
 */
export async function readingHttpErrors<T>(request: Promise<T>, reader: HttpErrorReader): Promise<T> {
  try {
    return await request;
  } catch (error) {
    throw readHttpError(error, reader);
  }
}
