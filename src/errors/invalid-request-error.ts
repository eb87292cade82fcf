import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * A request or option given to one of voxroute's framework adapters (`voxroute/ai-sdk`,
 * `voxroute/livekit`) that voxroute cannot serve: an audio container it does not read, an output
 * format it does not write, a message part it cannot send. Thrown before any provider is
 * contacted. `field` names the offending option (e.g. `'outputFormat'`). Code
 * `INVALID_REQUEST`. Never retryable.
 */
export class InvalidRequestError extends VoxrouteError {
  override readonly code = 'INVALID_REQUEST';
  /** The option or field that was wrong, e.g. `'outputFormat'` or `'prompt[1].content[0]'`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'InvalidRequestError';
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidRequestError {
    return hasCode(error, 'INVALID_REQUEST');
  }
}
