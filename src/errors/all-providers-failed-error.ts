import type { Attempt } from '../types/route-result.js';
import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * Every candidate provider of a route failed before producing output, or none was a
 * candidate. Code `ALL_PROVIDERS_FAILED`. `attempts` lists each attempt with its error;
 * `retryable` is true when every attempt's error was. The message is
 * `All providers failed for <capability>: <provider>: <error message>; <provider>: ...`, one
 * part per attempt in order: each error's message without its closing punctuation (so no part
 * ends in `.` before the `; `), or the error's name when its message is empty, or the attempt's
 * `outcome` when it has no error.
 */
export class AllProvidersFailedError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_AllProvidersFailedError`): `constructor.name`
  // reads 'AllProvidersFailedError' in the built package too.
  static {
    Object.defineProperty(AllProvidersFailedError, 'name', { value: 'AllProvidersFailedError' });
  }

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
      : clause(reason ?? '') || 'no candidate provider';
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

/**
 * One attempt's error as a part of the message: its message as one clause, else (an empty
 * message) its name, else `'unknown error'`.
 */
function errorSummary(error: unknown): string {
  if (error instanceof Error) return clause(error.message) || clause(error.name) || 'unknown error';
  return clause(String(error)) || 'unknown error';
}

/**
 * `text` as one clause of a `; `-joined list: white space collapsed to single spaces (a
 * multi-line message stays on one line), trimmed, and without the punctuation that would
 * double the separator (`.`, `;`, `,`, `:`) at its end.
 */
function clause(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.;,:]+$/, '');
}
