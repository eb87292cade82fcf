const MARKER = Symbol.for('voxroute.error');

/** Options shared by every voxroute error. */
export interface VoxrouteErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  cause?: unknown;
  /** Name of the provider (the key in the config's `providers`) that failed, when one did. */
  provider?: string;
  /** Whether another attempt (on this or another provider) may succeed. Default: false. */
  retryable?: boolean;
  /** True when the failing stream had already yielded output to the caller. Default: false. */
  partialOutput?: boolean;
}

/**
 * Base class of every error voxroute throws. Each subclass has a stable machine-readable
 * `code` and a static `isInstance` that works across two copies of the package (it checks a
 * `Symbol.for` marker, not the prototype chain). Messages never contain secrets.
 */
export class VoxrouteError extends Error {
  // The class's own name, whatever a bundler renames it to (e.g. `_VoxrouteError`): `constructor.name`
  // reads 'VoxrouteError' in the built package too.
  static {
    Object.defineProperty(VoxrouteError, 'name', { value: 'VoxrouteError' });
  }

  /** Stable machine-readable code of the error class, e.g. `'PROVIDER_ERROR'`. */
  readonly code: string = 'VOXROUTE_ERROR';
  /** Provider that failed, when the error comes from one. */
  readonly provider: string | undefined;
  /** Whether trying again (this provider later, or another one) may succeed. */
  readonly retryable: boolean;
  /** True when output had already reached the caller before the failure. */
  readonly partialOutput: boolean;

  /**
   * `options.cause` becomes the standard `cause`; `retryable` and `partialOutput` default to false;
   * `provider` stays undefined when not given.
   */
  constructor(message: string, options: VoxrouteErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VoxrouteError';
    Object.defineProperty(this, MARKER, { value: true });
    this.provider = options.provider;
    this.retryable = options.retryable ?? false;
    this.partialOutput = options.partialOutput ?? false;
  }

  /** True if `error` is a VoxrouteError from any copy of the package. */
  static isInstance(error: unknown): error is VoxrouteError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Builds the `isInstance` of a subclass: the base marker plus the subclass's stable code. */
export function hasCode(error: unknown, code: string): boolean {
  return VoxrouteError.isInstance(error) && error.code === code;
}
