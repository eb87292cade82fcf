import type { Attempt } from '../types/route-result.js';
import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * Every candidate provider of a route failed before producing output, or none was a
 * candidate. Code `ALL_PROVIDERS_FAILED`. `attempts` lists each attempt with its error;
 * `retryable` is true when every attempt's error was.
 */
export class AllProvidersFailedError extends VoxrouteError {
  override readonly code = 'ALL_PROVIDERS_FAILED';
  /** Every attempt, in order, each with its `error`. */
  readonly attempts: Attempt[];

  /**
   * `capability` (or route) named in the message; `attempts` in order, each with its `error`,
   * summarised in the message as `provider: error message`; `reason` is the message's summary when
   * `attempts` is empty. Default: `'no candidate provider'`.
   */
  constructor(capability: string, attempts: Attempt[], reason?: string) {
    const summary = attempts.length
      ? attempts.map((a) => `${a.provider}: ${a.error ? errorSummary(a.error) : a.outcome}`).join('; ')
      : (reason ?? 'no candidate provider');
    super(`All providers failed for ${capability}: ${summary}`, {
      retryable:
        attempts.length > 0 && attempts.every((a) => VoxrouteError.isInstance(a.error) && a.error.retryable),
    });
    this.name = 'AllProvidersFailedError';
    this.attempts = attempts;
  }

  static override isInstance(error: unknown): error is AllProvidersFailedError {
    return hasCode(error, 'ALL_PROVIDERS_FAILED');
  }
}

function errorSummary(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
