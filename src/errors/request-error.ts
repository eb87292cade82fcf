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
  // The class's own name, whatever a bundler renames it to (e.g. `_RequestError`): `constructor.name`
  // reads 'RequestError' in the built package too.
  static {
    Object.defineProperty(RequestError, 'name', { value: 'RequestError' });
  }

  override readonly code = 'REQUEST_INVALID';
  /** The request field at fault, as a dotted path, e.g. `'format.sampleRate'`, `'messages.2.content'`, `'audio'`. */
  readonly field: string;
  /**
   * `partialOutput` (default false): the call had already yielded output when the caller's own
   * input stream failed (see {@link afterOutput}).
   */
  constructor(field: string, message: string, options: { cause?: unknown; partialOutput?: boolean } = {}) {
    super(`Invalid request field '${field}': ${message}`, {
      cause: options.cause,
      retryable: false,
      partialOutput: options.partialOutput ?? false,
    });
    this.name = 'RequestError';
    this.field = field;
  }

  /**
   * This error as thrown by a call that had already yielded output (the caller's text or audio
   * stream failed mid-call): the same field, message and cause, `partialOutput: true`. Returns
   * `this` when it already says so. Reads only own properties, so it works on a redacted copy too.
   */
  afterOutput(): RequestError {
    if (this.partialOutput) return this;
    const prefix = `Invalid request field '${this.field}': `;
    const detail = this.message.startsWith(prefix) ? this.message.slice(prefix.length) : this.message;
    return new RequestError(this.field, detail, { cause: this.cause, partialOutput: true });
  }

  static override isInstance(error: unknown): error is RequestError {
    return hasCode(error, 'REQUEST_INVALID');
  }
}
