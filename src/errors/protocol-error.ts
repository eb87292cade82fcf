import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/** Options of a {@link ProtocolError}. */
export interface ProtocolErrorOptions extends VoxrouteErrorOptions {
  /** Byte offset in the response body of the offending frame, when known. */
  offset?: number;
}

/**
 * A provider sent something that does not follow its wire protocol: a malformed frame, JSON
 * that does not parse or fit the schema, a stream cut before its end marker (truncated), a
 * body with no events at all. Code `PROTOCOL_ERROR`. Retryable by default (another provider
 * may do better). The offending payload is never put in the message.
 */
export class ProtocolError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_ProtocolError`): `constructor.name`
  // reads 'ProtocolError' in the built package too.
  static {
    Object.defineProperty(ProtocolError, 'name', { value: 'ProtocolError' });
  }

  override readonly code = 'PROTOCOL_ERROR';
  /** Byte offset of the offending frame in the response body, when known. */
  readonly offset: number | undefined;

  /**
   * `options.retryable` defaults to true (another provider may do better); `options.offset`: byte
   * offset of the offending frame in the response body, when known.
   */
  constructor(message: string, options: ProtocolErrorOptions = {}) {
    super(message, { retryable: true, ...options });
    this.name = 'ProtocolError';
    this.offset = options.offset;
  }

  static override isInstance(error: unknown): error is ProtocolError {
    return hasCode(error, 'PROTOCOL_ERROR');
  }
}
