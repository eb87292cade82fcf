import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * The caller cancelled: its AbortSignal fired, or the router was closed. `name` is the
 * standard `'AbortError'`, so `err.name === 'AbortError'` checks work as with fetch.
 * Code `ABORTED`. Never retryable; no fallback runs after it.
 */
export class AbortError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_AbortError`): `constructor.name`
  // reads 'AbortError' in the built package too.
  static {
    Object.defineProperty(AbortError, 'name', { value: 'AbortError' });
  }

  override readonly code = 'ABORTED';

  /**
   * `message` defaults to `'The operation was aborted'`; `options.cause` is kept as the standard
   * `cause` (e.g. the signal's reason); `options.partialOutput` (default false): the stream had
   * already yielded output when it was aborted.
   */
  constructor(
    message = 'The operation was aborted',
    options: { cause?: unknown; partialOutput?: boolean } = {},
  ) {
    super(message, options);
    this.name = 'AbortError';
  }

  static override isInstance(error: unknown): error is AbortError {
    return hasCode(error, 'ABORTED');
  }
}
