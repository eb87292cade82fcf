import { hasCode, VoxrouteError } from './voxroute-error.js';

/**
 * The caller's request is invalid, or the caller's own input stream failed: a bad `format`
 * (sample rate, encoding, channels), `text` that is not a string or async iterable, STT audio
 * items that are not bytes, an invalid BCP 47 `language`, chat `messages` of the wrong shape
 * (tool calls and results included), a voice, model or route that the config does not know
 * (no provider of the route maps it; the message lists the names it knows); or the caller's
 * text or audio iterable threw (that error is the `cause`). Raised before any
 * provider is contacted when the request itself is bad; no provider is charged for it and no
 * circuit breaker opens. Code `REQUEST_INVALID`. Never retryable: no provider can fix it.
 */
export class RequestError extends VoxrouteError {
  override readonly code = 'REQUEST_INVALID';
  /** The request field at fault, as a dotted path, e.g. `'format.sampleRate'`, `'messages.2.content'`, `'audio'`. */
  readonly field: string;

  constructor(field: string, message: string, options: { cause?: unknown } = {}) {
    super(`Invalid request field '${field}': ${message}`, { cause: options.cause, retryable: false });
    this.name = 'RequestError';
    this.field = field;
  }

  static override isInstance(error: unknown): error is RequestError {
    return hasCode(error, 'REQUEST_INVALID');
  }
}
